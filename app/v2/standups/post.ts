// Placeholder until POST /v2/standups lands (issue #3); replaced by its implementation.
import { errorResponse } from "@/lib/api/errors";

export async function POST(): Promise<Response> {
  return errorResponse("v2", 501, "INTERNAL_ERROR", "Not implemented yet");
}
