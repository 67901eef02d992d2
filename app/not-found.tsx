import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

export const metadata: Metadata = { title: "Page not found" };

/**
 * The 404 page of unknown routes outside the dashboard (issue 41 item 11: it was Next's bare
 * default): says what happened and where to go, in the app's look.
 */
export default function NotFound() {
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-lg flex-col justify-center px-4">
      <div className="rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <p className="text-sm font-semibold text-brand-700">Team Check-in · 404</p>
        <h1 className="mt-2 text-2xl font-semibold text-slate-900">Page not found</h1>
        <p className="mt-2 text-sm text-slate-700">
          This address does not lead to any page. It may be mistyped, or the page was moved or removed.
        </p>
        <div className="mt-5 flex flex-wrap gap-3">
          <Link href="/overview" className={buttonClass("primary")}>
            Go to the overview
          </Link>
          <Link href="/docs" className={buttonClass("secondary")}>
            API documentation
          </Link>
        </div>
      </div>
    </main>
  );
}
