"use server";

import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/auth/session";
import { retryFailedMessage } from "@/lib/chat/retry";

/** Puts a failed message back in the delivery queue (team admins). */
export async function retryDeliveryAction(form: FormData): Promise<void> {
  await retryFailedMessage(await getActor(), Number(form.get("messageId")));
  revalidatePath("/channels");
}
