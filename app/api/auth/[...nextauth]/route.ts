/** next-auth route handler (sign-in, callbacks, session, csrf, sign-out) for the dashboard. */
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/next-auth";

export const dynamic = "force-dynamic";

const handler = NextAuth(authOptions);

export { handler as GET, handler as POST };
