/**
 * GET /v2/config.schema.json (issue 43): the JSON Schema of the "check-ins as code" document
 * (lib/config/schema.ts), public like /v2/openapi.json so editors can validate team.yaml; rate-limited
 * as every API request. Not an API operation (not in the OpenAPI document).
 */
import { API_HEADERS } from "@/lib/api/errors";
import { publicAnswer } from "@/lib/api/handler";
import { methodTable } from "@/lib/api/route";
import { teamConfigJsonSchema } from "@/lib/config/schema";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methodTable("v2", {
  GET: publicAnswer("v2", async () => {
    return new Response(JSON.stringify(teamConfigJsonSchema()), {
      status: 200,
      headers: { ...API_HEADERS, "Cache-Control": "public, max-age=300" },
    });
  }),
});
