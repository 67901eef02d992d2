import { notFound, redirect } from "next/navigation";
import { getSessionUser, type SessionUser } from "@/lib/auth/session";
import { NotFoundError } from "@/lib/domain/errors";

/** The signed-in user of a dashboard page; without a session the visitor goes to the sign-in page. */
export async function requireUser(): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in");
  return user;
}

/** The numeric `id` of a `[id]` route; anything else is the 404 page. */
export async function readIdParam(params: Promise<{ id: string }>): Promise<number> {
  const { id: raw } = await params;
  const id = Number(raw);
  if (!Number.isSafeInteger(id)) notFound();
  return id;
}

/** Awaits a domain read, showing the 404 page when the domain says the record is not there (or not visible). */
export function orNotFound<T>(read: Promise<T>): Promise<T> {
  return read.catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
}
