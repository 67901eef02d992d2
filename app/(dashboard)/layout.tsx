import { NavLinks } from "@/components/nav/nav-links";
import { SignOutButton } from "@/components/nav/sign-out-button";
import { canManagePeople, roleOf } from "@/lib/domain/access";
import { requireUser } from "./load";

export const dynamic = "force-dynamic";

/** Dashboard shell: header with team and user, navigation, main content. Requires a session. */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only-focusable absolute left-2 top-2 z-50 rounded bg-white px-3 py-2 text-sm font-medium text-brand-700 shadow"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-2 px-4 py-3">
          <div className="flex items-baseline gap-2">
            <span className="text-base font-semibold text-brand-700">Team Check-in</span>
            <span className="text-sm text-slate-600">{user.teamName}</span>
          </div>
          <div className="flex items-center gap-3 text-sm text-slate-700">
            <span>
              {user.realname}
              {roleOf(user) !== "member" && <span className="ml-1 text-xs text-slate-600">({roleOf(user)})</span>}
            </span>
            <SignOutButton />
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-4 md:flex-row md:gap-8 md:py-6">
        <nav aria-label="Main" className="md:w-48 md:shrink-0">
          <NavLinks admin={canManagePeople(user)} />
        </nav>
        <main id="main" className="min-w-0 flex-1">
          {children}
        </main>
      </div>
    </div>
  );
}
