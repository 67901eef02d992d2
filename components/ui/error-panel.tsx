"use client";

import { Button } from "@/components/ui/button";

/** Error boundary body: what went wrong and a retry button (used by error.tsx files). */
export function ErrorPanel({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-6">
      <h1 className="text-lg font-semibold text-red-900">Something went wrong</h1>
      <p className="mt-1 text-sm text-red-900">This page could not be loaded. {error.digest ? `Reference: ${error.digest}.` : ""}</p>
      <Button className="mt-4" variant="secondary" onClick={() => reset()}>
        Try again
      </Button>
    </div>
  );
}
