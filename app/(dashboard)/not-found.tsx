import Link from "next/link";

/** Not-found state for dashboard resources (missing or not visible to the caller). */
export default function NotFound() {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-lg font-semibold">Not found</h1>
      <p className="mt-1 text-sm text-slate-600">It does not exist or you cannot see it.</p>
      <Link href="/overview" className="mt-3 inline-block text-sm font-medium text-brand-700 underline">
        Back to the overview
      </Link>
    </div>
  );
}
