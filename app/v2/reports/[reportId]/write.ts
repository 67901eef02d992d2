// Placeholder until PATCH/DELETE /v2/reports/{id} land (issue #3); replaced by their implementation.
import { errorResponse } from "@/lib/api/errors";

export async function PATCH(): Promise<Response> {
  return errorResponse("v2", 501, "INTERNAL_ERROR", "Not implemented yet");
}

export async function DELETE(): Promise<Response> {
  return errorResponse("v2", 501, "INTERNAL_ERROR", "Not implemented yet");
}
