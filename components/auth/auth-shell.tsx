import type { ReactNode } from "react";

/** The centred card of the signed-out pages (sign-in, setup, invitation, password reset). */
export function AuthShell({ title, children, wide }: { title: string; children: ReactNode; wide?: boolean }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className={wide ? "w-full max-w-lg" : "w-full max-w-sm"}>
        <p className="mb-6 text-center text-lg font-semibold text-brand-700">Team Check-in</p>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="mb-4 text-xl font-semibold text-slate-900">{title}</h1>
          {children}
        </div>
      </div>
    </main>
  );
}
