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
  { href: "/settings/webhooks", label: "Webhooks" },
] as const;

/** Main navigation; the current section gets aria-current="page". */
export function NavLinks() {
  const pathname = usePathname();
  return (
    <ul className="flex gap-1 overflow-x-auto md:flex-col md:overflow-visible">
      {LINKS.map((link) => {
        const active = pathname === link.href || pathname.startsWith(`${link.href}/`);
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
