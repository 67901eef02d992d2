"use server";

import { revalidatePath } from "next/cache";
import type { CreateKeyState } from "@/components/api-keys/create-key-form";
import { getActor } from "@/lib/auth/session";
import { createApiKeyForActor, revokeApiKey } from "@/lib/domain/api-key-admin";
import { DomainError } from "@/lib/domain/errors";

/** Creates an API key for the signed-in user; the plaintext is returned once. */
export async function createKeyAction(_prev: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const actor = await getActor();
  try {
    const created = await createApiKeyForActor(actor, { name: String(form.get("name") ?? "") });
    revalidatePath("/settings/api-keys");
    return { key: created.key, prefix: created.prefix };
  } catch (err) {
    if (err instanceof DomainError) return { error: err.message, name: String(form.get("name") ?? "") };
    throw err;
  }
}

/** Revokes one key (own, or any of the team for admins). */
export async function revokeKeyAction(form: FormData): Promise<void> {
  const actor = await getActor();
  await revokeApiKey(actor, { id: Number(form.get("id")) });
  revalidatePath("/settings/api-keys");
}
