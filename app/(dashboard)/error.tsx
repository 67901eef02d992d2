"use client";

import { ErrorPanel } from "@/components/ui/error-panel";

/** Error state shared by dashboard pages. */
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorPanel error={error} reset={reset} />;
}
