import Link from "next/link";
import type { ReactNode } from "react";

/**
 * The centred card of the signed-out pages (sign-in, setup, invitation, password reset): the
 * product name, a card with `title` and `children`, and with `footerLink` a link under them
 * (e.g. back to the sign-in page).
 */
export function AuthShell({
  title,
  children,
  wide,
  footerLink,
}: {
  title: string;
  children: ReactNode;
  wide?: boolean;
  footerLink?: { href: string; label: string };
}) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className={wide ? "w-full max-w-lg" : "w-full max-w-sm"}>
        <p className="mb-6 text-center text-lg font-semibold text-brand-700">Team Check-in</p>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="mb-4 text-xl font-semibold text-slate-900">{title}</h1>
          {children}
          {footerLink && (
            <p className="mt-4 text-sm">
              <Link href={footerLink.href} className="text-brand-700 underline">
                {footerLink.label}
              </Link>
            </p>
          )}
        </div>
      </div>
    </main>
  );
}
