import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";

/** A headline number in a card: a label, the value, and an optional line under it. */
export function StatCard({ label, value, sub, testId }: { label: string; value: ReactNode; sub?: ReactNode; testId?: string }) {
  return (
    <Card>
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 text-2xl font-semibold" data-testid={testId}>
        {value}
      </p>
      {sub ? <p className="text-sm text-slate-600">{sub}</p> : null}
    </Card>
  );
}
