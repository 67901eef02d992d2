/** GET /v2/config (issue 43, a v2 extension): the team's configuration as a document (admins; others 404). */
import { json } from "@/lib/api/errors";
import { apiPath } from "@/lib/api/route";
import { configDataV2Schema } from "@/lib/api/v2/config";
import { readTeamState } from "@/lib/config/state";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/config", {
  GET: {
    doc: {
      tag: "Configuration",
      id: "exportConfig",
      summary: "The team's standups, polls, holidays and webhooks as a document (admins)",
      description: "People by e-mail, channels by name, no webhook secrets. Non-admins get 404.",
      response: { description: "`{data: document}`.", schema: configDataV2Schema },
      errors: { 404: true },
    },
    run: async ({ actor }) => json({ data: (await readTeamState(actor)).config }),
  },
});
