"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

const LINKS = [
  { href: "/overview", label: "Overview" },
  { href: "/my-checkins", label: "My check-ins" },
  { href: "/standups", label: "Standups" },
  { href: "/blockers", label: "Blockers" },
  { href: "/participation", label: "Participation" },
  { href: "/reports", label: "Reports" },
  { href: "/polls", label: "Polls" },
  { href: "/team", label: "Team" },
  { href: "/channels", label: "Channels" },
  { href: "/settings/api-keys", label: "API keys" },
  { href: "/profile", label: "Profile" },
  { href: "/settings/webhooks", label: "Webhooks" },
] as const;

/** Admin-only sections (Team → Members, Team → Audit log, Team → Channels). */
const ADMIN_LINKS = [
  { href: "/team/members", label: "Members" },
  { href: "/team/audit", label: "Audit log" },
  { href: "/channels/manage", label: "Manage channels" },
  { href: "/settings/system", label: "System" },
] as const;

/** Main navigation; the current section gets aria-current="page". `admin` adds the people sections. */
export function NavLinks({ admin = false }: { admin?: boolean }) {
  const pathname = usePathname();
  const links = admin ? [...LINKS, ...ADMIN_LINKS] : LINKS;
  return (
    <ul className="flex gap-1 overflow-x-auto md:flex-col md:overflow-visible">
      {links.map((link) => {
        const active =
          pathname === link.href ||
          (pathname.startsWith(`${link.href}/`) &&
            !links.some((l) => l.href !== link.href && l.href.startsWith(link.href) && pathname.startsWith(l.href)));
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
  );
}
