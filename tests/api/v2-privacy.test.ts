/**
 * GET / PATCH /v2/privacy (issue 45): any member reads the team's anonymity threshold and
 * retention; admins change them (audited), members get 404, out-of-range values 400; the answers
 * parse with the documented schema.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET, PATCH } from "@/app/v2/privacy/route";
import { privacyDataV2Schema } from "@/lib/api/v2/privacy";
import { listAudit } from "@/lib/domain/audit";
import { createTestTeam, type TestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";

let T: TestTeam;
beforeAll(async () => {
  T = await createTestTeam({ members: 1 });
});

const patch = (key: string, body: unknown) => call(PATCH, { method: "PATCH", path: "/v2/privacy", key, body });

describe("/v2/privacy", () => {
  it("reads the defaults, lets an admin change them, refuses members and bad values", async () => {
    const [admin, member] = T.users;
    const read = await call(GET, { path: "/v2/privacy", key: member.key });
    expect(read.status).toBe(200);
    expect(privacyDataV2Schema.parse(read.body)).toEqual({
      data: { anonymity_threshold: 3, retention_days: null, retention_mode: "anonymise", audit_retention_days: 365 },
    });
    const changed = await patch(admin.key, { anonymity_threshold: 4, retention_days: 30, retention_mode: "delete" });
    expect(changed.status).toBe(200);
    expect(privacyDataV2Schema.parse(changed.body).data).toEqual({
      anonymity_threshold: 4,
      retention_days: 30,
      retention_mode: "delete",
      audit_retention_days: 365,
    });
    expect((await patch(admin.key, { retention_days: null })).body.data.retention_days).toBeNull();
    expect((await listAudit(admin.actor, { action: "team.retention" })).items.length).toBe(2);
    expect((await patch(member.key, { anonymity_threshold: 5 })).status).toBe(404);
    for (const body of [{ anonymity_threshold: 1 }, { retention_days: 0 }, { retention_mode: "shred" }, {}, { unknown: 1 }]) {
      const res = await patch(admin.key, body);
      expect({ body, status: res.status, code: res.body.error?.code }).toEqual({ body, status: 400, code: "INVALID_PARAMETER" });
    }
  });
});
