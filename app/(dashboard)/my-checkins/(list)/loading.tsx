import { PageSkeleton } from "@/components/ui/states";

/** Loading state of this page. */
export default function Loading() {
  return <PageSkeleton />;
}
