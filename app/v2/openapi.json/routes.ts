/**
 * The index of the API route modules, beside the route that serves the document: importing this
 * file loads every route under app/v1 and app/v2, and with them their `apiPath` declarations
 * (lib/api/route.ts), then gives the document lib/openapi/document.ts assembles from them. Read the
 * document through this file (GET /v2/openapi.json, app/docs/page.tsx, tests), never straight from
 * lib/openapi/document.ts, which cannot import app/ (CODE_STYLE.md "Layers"). A new route file goes
 * here too — tests/api/openapi.test.ts fails while a served route is missing from the document.
 * (The catch-alls and /v2/openapi.json itself are not API operations.)
 */
import "@/app/v1/me/route";
import "@/app/v1/me/standups/route";
import "@/app/v1/me/teams/route";
import "@/app/v1/polls/[id]/route";
import "@/app/v1/polls/[id]/votes/route";
import "@/app/v1/polls/route";
import "@/app/v1/reports/route";
import "@/app/v1/standups/[id]/duplicate/route";
import "@/app/v1/standups/[id]/route";
import "@/app/v1/standups/[id]/start/route";
import "@/app/v1/standups/route";
import "@/app/v1/teams/route";
import "@/app/v2/config/apply/route";
import "@/app/v2/config/plan/route";
import "@/app/v2/config/route";
import "@/app/v2/polls/[pollId]/participation/route";
import "@/app/v2/polls/[pollId]/route";
import "@/app/v2/polls/[pollId]/votes/route";
import "@/app/v2/polls/route";
import "@/app/v2/privacy/route";
import "@/app/v2/reports/[reportId]/route";
import "@/app/v2/reports/route";
import "@/app/v2/standups/[standupId]/participation/route";
import "@/app/v2/standups/[standupId]/route";
import "@/app/v2/standups/[standupId]/summaries/route";
import "@/app/v2/standups/route";

export { buildOpenApiDocument, getOpenApiDocument, OPENAPI_TAGS, type OpenApiDocument } from "@/lib/openapi/document";
