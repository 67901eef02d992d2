import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/auth/session";
import { needsSetup } from "@/lib/domain/first-run";

export const dynamic = "force-dynamic";

/** `/`: the overview when signed in, the one-time setup on an empty database, otherwise the sign-in page. */
export default async function Home() {
  if (await needsSetup()) redirect("/setup");
  const user = await getSessionUser();
  redirect(user ? "/overview" : "/sign-in");
}
