/**
 * "My data" built by a job (issue 45): Profile → My data asks for the archive (a pending
 * `data_exports` row and its `build_data_export` job); the job stores the JSON archive and the
 * reports CSV, offered for 24 hours; GET /exports/my-data?export_id=N downloads it for its person
 * (or the admin who asked) only; the hourly cleanup deletes it after 24 hours; an admin's request
 * for someone is audited; erasure deletes the person's archives.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as myData } from "@/app/exports/my-data/route";
import { db } from "@/lib/db";
import { listAudit } from "@/lib/domain/audit";
import { cleanupDataExports, DATA_EXPORT_TTL_MS, latestDataExport, requestDataExport } from "@/lib/domain/data-exports";
import { erasePerson } from "@/lib/domain/erasure";
import { buildDataExport } from "@/lib/jobs/data-export";
import { createTestCheckin, createTestReport, createTestTeam, jobQueued, type TestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";

let T: TestTeam;

beforeAll(async () => {
  T = await createTestTeam({ members: 2 });
});

const download = (key: string, id: number, format = "json") =>
  call(myData, { path: `/exports/my-data?export_id=${id}${format === "csv" ? "&format=csv" : ""}`, key });

describe("My data archives (issue 45)", () => {
  it("is prepared by a job, offered for 24 hours to its person only, then deleted", async () => {
    const [admin, m0, m1] = T.users;
    const standup = await createTestCheckin(T, { name: "Archive", members: [m0, m1] });
    await createTestReport(standup, m0, { answers: ["archived answer of m0"] });
    await createTestReport(standup, m1, { answers: ["answer of m1"] });

    const asked = await requestDataExport(m0.actor);
    expect(asked.status).toBe("pending");
    expect(await jobQueued(`data_export:${asked.id}`)).toBe(true);
    expect((await latestDataExport(m0.actor))?.status).toBe("pending");
    expect((await download(m0.key, asked.id)).status).toBe(404); // not ready yet
    // Asking again while it is being prepared reuses it.
    expect((await requestDataExport(m0.actor)).id).toBe(asked.id);

    const at = new Date();
    expect(await buildDataExport(asked.id, db, at)).toBe(true);
    expect(await buildDataExport(asked.id, db, at)).toBe(false); // idempotent
    const ready = await latestDataExport(m0.actor, db, at);
    expect(ready).toMatchObject({ id: asked.id, status: "ready" });
    expect(ready?.expiresAt.getTime()).toBe(at.getTime() + DATA_EXPORT_TTL_MS);

    const json = await download(m0.key, asked.id);
    expect(json.status).toBe(200);
    expect(json.body.profile.email).toBe(m0.email);
    expect(json.text).toContain("archived answer of m0");
    expect(json.text).not.toContain("answer of m1");
    const csv = await download(m0.key, asked.id, "csv");
    expect(csv.text).toContain("archived answer of m0");
    // Nobody else downloads it (another member; an admin who did not ask for it).
    expect((await download(m1.key, asked.id)).status).toBe(404);
    expect((await download(admin.key, asked.id)).status).toBe(404);

    expect(await cleanupDataExports(db, new Date(at.getTime() + DATA_EXPORT_TTL_MS - 1000))).toBe(0);
    expect(await cleanupDataExports(db, new Date(at.getTime() + DATA_EXPORT_TTL_MS + 1))).toBeGreaterThanOrEqual(1);
    expect(await db.dataExport.count({ where: { id: asked.id } })).toBe(0);
    expect((await download(m0.key, asked.id)).status).toBe(404);
  });

  it("an admin's archive of someone is audited and theirs to download; erasure deletes archives", async () => {
    const [admin, m0, m1] = T.users;
    const asked = await requestDataExport(admin.actor, { userId: m1.id });
    const [entry] = (await listAudit(admin.actor, { action: "user.export" })).items;
    expect(entry).toMatchObject({ target: `user:${m1.id}`, actor: { id: admin.id } });
    await buildDataExport(asked.id);
    expect((await download(admin.key, asked.id)).body.profile.email).toBe(m1.email);
    await expect(requestDataExport(m0.actor, { userId: m1.id })).rejects.toThrow(/admins/);
    await requestDataExport(m1.actor);
    await erasePerson(admin.actor, { userId: m1.id, confirm: m1.email });
    expect(await db.dataExport.count({ where: { user_id: m1.id } })).toBe(0);
  });
});
