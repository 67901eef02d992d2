"use client";

import { signOut } from "next-auth/react";

/** Signs the user out and returns to the sign-in page. */
export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={() => signOut({ callbackUrl: "/sign-in" })}
      className="rounded-md px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50"
    >
      Sign out
    </button>
  );
}
