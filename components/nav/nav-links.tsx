"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

type NavLink = { href: string; label: string };
/** A titled group of the main navigation. */
type NavGroup = { title: string; links: readonly NavLink[] };

/** The groups every signed-in person sees (issue 41 item 11: grouped, not one flat list). */
const GROUPS: readonly NavGroup[] = [
  {
    title: "Check-ins",
    links: [
      { href: "/overview", label: "Overview" },
      { href: "/my-checkins", label: "My check-ins" },
      { href: "/standups", label: "Standups" },
      { href: "/polls", label: "Polls" },
      { href: "/reports", label: "Reports" },
      { href: "/blockers", label: "Blockers" },
      { href: "/participation", label: "Participation" },
    ],
  },
  {
    title: "Team",
    links: [
      { href: "/team", label: "Absences & holidays" },
      { href: "/channels", label: "Channels" },
    ],
  },
  {
    title: "You",
    links: [
      { href: "/profile", label: "Profile" },
      { href: "/settings/api-keys", label: "API keys" },
    ],
  },
];

/**
 * The team-admin group: people, audit log, channels, webhooks (members only read "Team admins
 * only" there, so they do not see the link), Settings → System.
 */
const ADMIN_GROUP: NavGroup = {
  title: "Admin",
  links: [
    { href: "/team/members", label: "Members" },
    { href: "/team/audit", label: "Audit log" },
    { href: "/channels/manage", label: "Manage channels" },
    { href: "/settings/webhooks", label: "Webhooks" },
    { href: "/settings/system", label: "System" },
  ],
};

/**
 * Main navigation in titled groups; the current section gets aria-current="page" (the longest
 * matching link, so /team/members marks Members, not the /team link). `admin` adds the Admin group.
 */
export function NavLinks({ admin = false }: { admin?: boolean }) {
  const pathname = usePathname();
  const groups = admin ? [...GROUPS, ADMIN_GROUP] : GROUPS;
  const links = groups.flatMap((g) => g.links);
  const isActive = (link: NavLink) =>
    pathname === link.href ||
    (pathname.startsWith(`${link.href}/`) &&
      !links.some((l) => l.href !== link.href && l.href.startsWith(link.href) && pathname.startsWith(l.href)));
  return (
    <div className="flex gap-4 overflow-x-auto md:flex-col md:overflow-visible">
      {groups.map((group) => {
        const headingId = `nav-${group.title.toLowerCase()}`;
        return (
          <div key={group.title} role="group" aria-labelledby={headingId} className="shrink-0">
            <p id={headingId} className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">
              {group.title}
            </p>
            <ul className="flex gap-1 md:flex-col" data-testid="nav-group">
              {group.links.map((link) => {
                const active = isActive(link);
                return (
                  <li key={link.href} className="shrink-0">
                    <Link
                      href={link.href}
                      aria-current={active ? "page" : undefined}
                      className={cn(
                        "block rounded-md px-3 py-2 text-sm font-medium",
                        active ? "bg-brand-100 text-brand-800" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
                      )}
                    >
                      {link.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
