import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** `/`: the overview when signed in, otherwise the sign-in page. */
export default async function Home() {
  const user = await getSessionUser();
  redirect(user ? "/overview" : "/sign-in");
}
