/**
 * Retention (issue 45, lib/domain/retention.ts): with 30 days, "anonymise" removes the answers of
 * older reports, the typed text of older votes, the text of older delivered chat messages and audit
 * entries past their own retention, keeps every report and vote choice so participation is
 * identical before and after, writes one `retention.applied` audit entry and webhook event, and a
 * second run changes nothing; "delete" removes the older reports and votes themselves; teams without
 * retention keep everything; only admins change the settings.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as participationRoute } from "@/app/v2/standups/[standupId]/participation/route";
import { db } from "@/lib/db";
import { listAudit } from "@/lib/domain/audit";
import { ForbiddenError, InvalidParameterError } from "@/lib/domain/errors";
import { applyRetention, getRetention, setRetention } from "@/lib/domain/retention";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { createTestVote } from "@/tests/poll-fixtures";

const NOW = new Date("2026-06-30T12:00:00Z");
const OLD = new Date("2026-01-05T10:00:00Z");
const RECENT = new Date("2026-06-29T10:00:00Z");

/** A team with an old run (two reports), a recent run (one report), an old poll vote, an old message and an old audit entry. */
async function seeded() {
  const T = await createTestTeam({ members: 2 });
  const [admin, m0, m1] = T.users;
  const standup = await createTestCheckin(T, { name: "Daily", owner: admin, members: [admin, m0, m1], questions: [{ text: "News?" }] });
  const oldRun = await createTestOccurrence(standup, "2026-01-05", [admin, m0, m1]);
  const newRun = await createTestOccurrence(standup, "2026-06-29", [admin, m0, m1]);
  const old = [
    await createTestReport(standup, m0, { occurrence_id: oldRun.id, submitted_at: OLD, answers: ["old answer of m0"] }),
    await createTestReport(standup, m1, { occurrence_id: oldRun.id, submitted_at: OLD, answers: ["old answer of m1"] }),
  ];
  const recent = await createTestReport(standup, m0, { occurrence_id: newRun.id, submitted_at: RECENT, answers: ["recent answer"] });
  const poll = await createTestCheckin(T, { kind: "poll", owner: admin, questions: [{ text: "Ideas?", answer_type: "open_ended" }] });
  const broadcast = await createTestOccurrence(poll, "2026-01-05", [admin, m0, m1]);
  await createTestVote(poll, broadcast.id, m0, 0, { text: "old idea", categories: ["ideas"] });
  await db.vote.updateMany({ where: { occurrence_id: broadcast.id }, data: { created_at: OLD } });
  await db.chatMessage.create({
    data: {
      team_id: T.id,
      ts: `${Date.now()}.000001`,
      kind: "report",
      channel_id: T.channels[0].id,
      report_id: old[0].id,
      text: "old answer of m0",
      delivery_state: "delivered",
      created_at: OLD,
    },
  });
  await db.auditEntry.create({
    data: { team_id: T.id, actor_id: admin.id, action: "user.add", created_at: new Date("2024-01-01T00:00:00Z") },
  });
  const endpoint = await db.webhookEndpoint.create({
    data: { team_id: T.id, url: "https://hooks.example.com/retention", events: ["retention.applied"], secret: "whsec_dGVzdA==" },
  });
  return { T, admin, m0, standup, old, recent, broadcast, endpoint };
}

/** The standup's participation as GET /v2/standups/{id}/participation answers it for `key`. */
async function participation(key: string, standupId: number) {
  const res = await call(participationRoute, {
    path: `/v2/standups/${standupId}/participation?since=2026-01-01T00:00:00Z`,
    key,
    params: { standupId: String(standupId) },
  });
  expect(res.status).toBe(200);
  return res.body;
}

describe("retention (issue 45)", () => {
  let s: Awaited<ReturnType<typeof seeded>>;
  beforeAll(async () => {
    s = await seeded();
  });

  it("defaults to forever (nothing but year-old audit entries goes)", async () => {
    expect(await getRetention(s.admin.actor)).toEqual({ days: null, mode: "anonymise", auditDays: 365 });
  });

  it("anonymise: answers, vote texts and message texts older than N days go, reports stay, participation is identical; a second run changes nothing", async () => {
    await setRetention(s.admin.actor, { days: 30, mode: "anonymise", auditDays: 365 });
    const before = await participation(s.admin.key, s.standup.id);
    const changed = await applyRetention(NOW, db, { teamId: s.T.id });
    expect(changed.get(s.T.id)).toMatchObject({
      answersDeleted: 2,
      reportsDeleted: 0,
      votesAnonymised: 1,
      messagesCleared: 1,
      auditEntriesDeleted: 1,
    });

    expect(await db.answer.count({ where: { report_id: { in: s.old.map((r) => r.id) } } })).toBe(0);
    expect((await db.answer.findMany({ where: { report_id: s.recent.id } })).map((a) => a.text)).toEqual(["recent answer"]);
    expect(await db.report.count({ where: { id: { in: s.old.map((r) => r.id) }, status: "submitted" } })).toBe(2);
    expect(await db.vote.findMany({ where: { occurrence_id: s.broadcast.id }, select: { text: true, categories: true } })).toEqual([
      { text: null, categories: [] },
    ]);
    expect((await db.chatMessage.findFirstOrThrow({ where: { report_id: s.old[0].id } })).text).toBe("");
    expect(await participation(s.admin.key, s.standup.id)).toEqual(before);

    const audit = (await listAudit(s.admin.actor, { action: "retention.applied" })).items;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: null, details: expect.objectContaining({ answersDeleted: 2 }) });
    const events = await db.webhookDelivery.findMany({ where: { endpoint_id: s.endpoint.id } });
    expect(events.map((e) => (e.payload as { data: { counts: { answersDeleted: number } } }).data.counts.answersDeleted)).toEqual([2]);

    // Idempotent: nothing left to do, no new audit entry, no new event.
    expect((await applyRetention(NOW, db, { teamId: s.T.id })).size).toBe(0);
    expect((await listAudit(s.admin.actor, { action: "retention.applied" })).items).toHaveLength(1);
    expect(await db.webhookDelivery.count({ where: { endpoint_id: s.endpoint.id } })).toBe(1);
  });

  it("delete: older reports and votes are removed; recent ones stay", async () => {
    const d = await seeded();
    await setRetention(d.admin.actor, { days: 30, mode: "delete", auditDays: 365 });
    const changed = await applyRetention(NOW, db, { teamId: d.T.id });
    expect(changed.get(d.T.id)).toMatchObject({ answersDeleted: 2, reportsDeleted: 2, votesDeleted: 1 });
    expect(await db.report.count({ where: { id: { in: d.old.map((r) => r.id) } } })).toBe(0);
    expect(await db.report.count({ where: { id: d.recent.id } })).toBe(1);
    expect(await db.vote.count({ where: { occurrence_id: d.broadcast.id } })).toBe(0);
    expect((await applyRetention(NOW, db, { teamId: d.T.id })).size).toBe(0);
  });

  it("a team without retention keeps its answers; only admins change the settings, within bounds", async () => {
    const k = await seeded();
    await applyRetention(NOW, db, { teamId: k.T.id });
    expect(await db.answer.count({ where: { report_id: { in: k.old.map((r) => r.id) } } })).toBe(2);
    await expect(setRetention(k.m0.actor, { days: 30, mode: "delete", auditDays: 365 })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(setRetention(k.admin.actor, { days: 0, mode: "delete", auditDays: 365 })).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(setRetention(k.admin.actor, { days: 30, mode: "shred" as "delete", auditDays: 365 })).rejects.toBeInstanceOf(
      InvalidParameterError,
    );
  });
});
