/**
 * Erasure of a person (issue 45): after `erasePerson`, a search of every table of the database
 * (the app's tables, the job outbox, graphile-worker's jobs) for the person's e-mail, name, username,
 * chat id and answer texts finds nothing — idempotency records, webhook payloads, audit details,
 * chat message texts, the job outbox and graphile-worker's job payloads included; their report broadcasts are deleted through the outbox; participation
 * and vote counts are unchanged; only the person or an admin, with the e-mail as confirmation.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as v2Submit } from "@/app/v2/reports/route";
import { GET as participationRoute } from "@/app/v2/standups/[standupId]/participation/route";
import { db, queryRows } from "@/lib/db";
import { listAudit, recordAudit } from "@/lib/domain/audit";
import { erasePerson } from "@/lib/domain/erasure";
import { ForbiddenError, InvalidParameterError } from "@/lib/domain/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { enqueueJob } from "@/lib/jobs/enqueue";
import {
  createTestCheckin,
  createTestOccurrence,
  createTestReport,
  createTestTeam,
  createTestUser,
  dispatchJobOutbox,
  type TestTeam,
  type TestUser,
  unqueueJobs,
} from "@/tests/fixtures";
import { call } from "@/tests/http";
import { createTestVote } from "@/tests/poll-fixtures";
import { firstAttemptDeliveries } from "@/tests/webhook-deliveries";

let T: TestTeam;
let person: TestUser;
const tag = randomBytes(5).toString("hex");
const ANSWER = `my private answer ${tag}`;
const VOTE_TEXT = `my private idea ${tag}`;

/** Rows of every table of the database whose text contains `needle` (case-insensitive): "schema.table" → count. */
async function findEverywhere(needle: string): Promise<Record<string, number>> {
  const tables = await queryRows<{ schema: string; name: string }>(
    Prisma.sql`SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema IN ('public', 'graphile_worker')`,
  );
  const found: Record<string, number> = {};
  for (const t of tables) {
    const rel = Prisma.raw(`"${t.schema}"."${t.name}"`);
    const [row] = await queryRows<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM ${rel} x WHERE x::text ILIKE ${`%${needle}%`}`);
    if (row.n > 0) found[`${t.schema}.${t.name}`] = row.n;
  }
  return found;
}

beforeAll(async () => {
  T = await createTestTeam({ members: 2 });
  person = await createTestUser(T.id, { name: `Erz${tag}` });
});

describe("erasePerson (issue 45)", () => {
  it("leaves none of the person's identifiers or answers anywhere, deletes their broadcasts, keeps the counts", async () => {
    const [admin, m0] = T.users;
    const standup = await createTestCheckin(T, {
      name: "Daily",
      owner: admin,
      members: [admin, m0, person],
      questions: [{ text: "How is it going?" }],
    });
    await db.webhookEndpoint.create({
      data: { team_id: T.id, url: "https://hooks.example.com/erase", events: ["report.submitted"], secret: "whsec_dGVzdA==" },
    });
    const submitted = await call(v2Submit, {
      method: "POST",
      path: "/v2/reports",
      key: person.key,
      headers: { "idempotency-key": `erase-${tag}` },
      body: { standup_id: standup.id, answers: [{ question_id: standup.questions[0].id, text: ANSWER }] },
    });
    expect(submitted.status).toBe(200);
    const reportId = submitted.body.data.id as number;
    const poll = await createTestCheckin(T, { kind: "poll", owner: admin, questions: [{ text: "Ideas?", answer_type: "open_ended" }] });
    const broadcast = await createTestOccurrence(poll, "2026-06-01", [admin, m0, person]);
    await createTestVote(poll, broadcast.id, person, 0, { text: VOTE_TEXT, categories: ["ideas"] });
    await db.absence.create({
      data: {
        team_id: T.id,
        user_id: person.id,
        start_date: new Date("2026-07-01"),
        end_date: new Date("2026-07-02"),
        note: `${person.realname} on leave`,
      },
    });
    // Copies elsewhere: an audit entry's details, a job waiting in the job outbox and one handed to graphile-worker.
    await recordAudit(db, {
      teamId: T.id,
      actorId: admin.id,
      action: "user.role_change",
      target: `user:${person.id}`,
      details: { email: person.email, name: person.realname, quoted: ANSWER },
    });
    await enqueueJob(db, "send_email", { to: person.email, subject: `Hello ${person.realname}` }, { jobKey: `erase-a-${tag}` });
    await dispatchJobOutbox();
    await enqueueJob(db, "send_email", { to: person.email, body: ANSWER }, { jobKey: `erase-b-${tag}` });
    const needles = [person.email, person.realname, person.username, person.chat_id, ANSWER, VOTE_TEXT];
    // The report.submitted webhook's payload exists once its first attempt rendered it (issue 51).
    await firstAttemptDeliveries({ team_id: T.id });
    // Seeded where the issue says copies live: before the erasure they are found.
    const before = await findEverywhere(ANSWER);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining([
        "public.answers",
        "public.idempotency_records",
        "public.webhook_deliveries",
        "public.chat_messages",
        "public.audit_entries",
        "public.job_outbox",
      ]),
    );
    expect(Object.keys(await findEverywhere(person.email))).toEqual(
      expect.arrayContaining(["public.audit_entries", "public.job_outbox", "graphile_worker._private_jobs"]),
    );
    const participation = async () =>
      (
        await call(participationRoute, {
          path: `/v2/standups/${standup.id}/participation`,
          key: admin.key,
          params: { standupId: String(standup.id) },
        })
      ).body;
    const participationBefore = await participation();
    const votesBefore = await db.vote.count({ where: { occurrence_id: broadcast.id } });

    await expect(erasePerson(m0.actor, { userId: person.id, confirm: person.email })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(erasePerson(admin.actor, { userId: person.id, confirm: "someone@else.example" })).rejects.toBeInstanceOf(
      InvalidParameterError,
    );
    const result = await erasePerson(admin.actor, { userId: person.id, confirm: person.email });
    expect(result).toMatchObject({ answersDeleted: 1, votesAnonymised: 1, broadcastsDeleted: 1 });

    for (const needle of needles) expect({ needle, found: await findEverywhere(needle) }).toEqual({ needle, found: {} });
    await unqueueJobs([`erase-a-${tag}`, `erase-b-${tag}`]);
    // The broadcast is deleted on the platform through the outbox (removed, delivery pending again).
    const message = await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId, kind: "report" } });
    expect(message.deleted_at).not.toBeNull();
    expect(message.delivery_state).toBe("pending");
    // Participation and vote counts are unchanged; the report stays as the fact of answering.
    expect(await participation()).toEqual(participationBefore);
    expect(await db.vote.count({ where: { occurrence_id: broadcast.id } })).toBe(votesBefore);
    expect(await db.report.findUniqueOrThrow({ where: { id: reportId }, select: { status: true } })).toEqual({ status: "submitted" });
    const erased = await db.user.findUniqueOrThrow({ where: { id: person.id } });
    expect(erased).toMatchObject({ realname: "Erased member", avatar_url: null, password_hash: null });
    expect(erased.deactivated_at).not.toBeNull();
    const [entry] = (await listAudit(admin.actor, { action: "user.erase" })).items;
    expect(entry).toMatchObject({ target: `user:${person.id}`, actor: { id: admin.id } });

    // Idempotent: a second erasure (confirmed with the tombstone address) changes nothing more.
    const again = await erasePerson(admin.actor, { userId: person.id, confirm: erased.email });
    expect(again).toEqual({
      answersDeleted: 0,
      votesAnonymised: 0,
      reportsDeleted: 0,
      votesDeleted: 0,
      broadcastsDeleted: 0,
      rowsScrubbed: 0,
    });
  });

  it("with the team's retention mode \"delete\", removes the person's reports and votes too", async () => {
    const D = await createTestTeam({ members: 1 });
    const [admin, member] = D.users;
    await db.team.update({ where: { id: D.id }, data: { retention_mode: "delete" } });
    const standup = await createTestCheckin(D, { owner: admin, members: [admin, member] });
    const report = await createTestReport(standup, member, { answers: [`gone ${tag}`] });
    const poll = await createTestCheckin(D, { kind: "poll", owner: admin, questions: [{ text: "Pick", choices: ["a", "b"] }] });
    const broadcast = await createTestOccurrence(poll, "2026-06-02", [admin, member]);
    await createTestVote(poll, broadcast.id, member, 0, { choice: "a" });
    const result = await erasePerson(member.actor, { userId: member.id, confirm: member.email });
    expect(result).toMatchObject({ reportsDeleted: 1, votesDeleted: 1 });
    expect(await db.report.count({ where: { id: report.id } })).toBe(0);
    expect(await db.vote.count({ where: { occurrence_id: broadcast.id } })).toBe(0);
    // Self-erasure is audited with no acting admin.
    const [entry] = (await listAudit(admin.actor, { action: "user.erase" })).items;
    expect(entry).toMatchObject({ target: `user:${member.id}`, actor: null });
  });
});
