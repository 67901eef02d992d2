import type { ReactNode } from "react";
import { LinkButton } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";

/** Header of a page under Team (holidays, privacy, import): title, description and a link back to /team. */
export function TeamPageHeader({ title, description }: { title: string; description: ReactNode }) {
  return (
    <PageHeader
      title={title}
      description={description}
      actions={
        <LinkButton href="/team" variant="secondary">
          Back to team
        </LinkButton>
      }
    />
  );
}
