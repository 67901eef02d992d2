import { PageSkeleton } from "@/components/ui/states";

/** Loading state shared by dashboard pages without their own. */
export default function Loading() {
  return <PageSkeleton />;
}
