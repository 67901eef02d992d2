/**
 * Issue 14, write path: `POST /v2/reports` in two statements (lib/domain/report-submission.ts)
 * when the read settles the occurrence — outside a transaction when the write is one statement
 * and nothing else must commit with it, else inside one — and `PATCH
 * /v2/reports/{id}` in two without a transaction (read, guarded write) or, when a webhook listens or
 * the report changed in between, in three in one (lock, read, write: lib/domain/report-edit.ts).
 * Checked over the real route handlers and a real PostgreSQL:
 * - the answer is the report as `GET /v2/reports/{id}` reads it back, byte for byte, the broadcast
 *   text is the rendered report, and a webhook's `report.submitted` carries the same report (as its first attempt renders it);
 * - the read and the write are the only statements (no BEGIN/COMMIT) for an unkeyed submission to an
 *   ad-hoc occurrence; joining today's scheduled occurrence adds the roster row and a transaction;
 * - the write's guards, with a second connection holding the rows: a pending report another
 *   transaction submits meanwhile is not overwritten, and a pending report the scheduler creates
 *   while the submission waits for the roster row is the one completed (no second report);
 * - an edit re-renders the broadcast from the answers as they are once it holds the report's row
 *   lock, including another edit that committed while it waited; the optimistic write's guard
 *   writes nothing when the report row changed since its read.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATCH as editRoute, GET as reportRoute } from "@/app/v2/reports/[reportId]/route";
import { POST as v2Submit } from "@/app/v2/reports/route";
import { db } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { WEEKDAYS } from "@/lib/domain/constants";
import { readEditContext, writeEdit } from "@/lib/domain/report-edit";
import { createTestCheckin, createTestOccurrence, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { installQueryCounter } from "@/tests/query-count";
import { firstAttemptDeliveries } from "@/tests/webhook-deliveries";

const queries = installQueryCounter();

let A: TestTeam;
let other: pg.Client;
const today = () => new Date().toISOString().slice(0, 10);

const submit = (user: TestUser, standupId: number, answers: Array<{ question_id: number; text: string }>, extra = {}) =>
  call(v2Submit, { method: "POST", path: "/v2/reports", key: user.key, body: { standup_id: standupId, answers, ...extra } });

const edit = (user: TestUser, id: number, answers: Array<{ question_id: number; text: string }>) =>
  call(editRoute, { method: "PATCH", path: `/v2/reports/${id}`, key: user.key, params: { reportId: String(id) }, body: { answers } });

const readBack = (user: TestUser, id: number) =>
  call(reportRoute, { path: `/v2/reports/${id}`, key: user.key, params: { reportId: String(id) } });

/**
 * Resolves once some backend waits for a row lock (the submission behind `other`'s transaction).
 * `other` polls from inside its open transaction, where PostgreSQL would keep answering from the
 * activity snapshot of the first poll: each poll clears it first.
 */
async function untilLockWait(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await other.query("SELECT pg_stat_clear_snapshot()");
    const { rows } = await other.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows[0].n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the submission never waited for the locked row");
}

/** Once `request` waits for the row `other`'s open transaction holds, commits that transaction; resolves with the request's answer. */
async function whenOtherCommits<T>(request: Promise<T>): Promise<T> {
  await untilLockWait();
  await other.query("COMMIT");
  return request;
}

beforeAll(async () => {
  A = await createTestTeam({ members: 4 });
  other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
});

afterAll(async () => {
  await other.end();
});

describe("POST /v2/reports in two statements", () => {
  it("answers the report as GET reads it, broadcasts the rendered report, and sends only the read and the write", async () => {
    const [, ada] = A.users;
    const standup = await createTestCheckin(A, {
      name: "Two statements",
      members: [ada],
      questions: [{ text: "Done?" }, { text: "Next?" }, { text: "Blockers?" }],
      days: [WEEKDAYS[(new Date().getUTCDay() + 3) % 7]],
    });
    // Question order differs from id order: "Blockers?" first, then "Done?", then "Next?".
    const [done, next, blockers] = standup.questions;
    await db.question.update({ where: { id: blockers.id }, data: { position: -1 } });
    const answers = [
      { question_id: next.id, text: 'ship "it" <b>\u00e9</b>' },
      { question_id: done.id, text: "  " },
      { question_id: blockers.id, text: "none\nreally" },
    ];
    // The standup does not run today: the first report opens today's ad-hoc occurrence (through
    // the resolution module) and warms the API-key cache; the second goes into that occurrence.
    const first = await submit(ada, standup.id, answers);
    expect(first.status).toBe(200);
    expect(JSON.stringify(first.body.data)).toBe(JSON.stringify((await readBack(ada, first.body.data.id)).body.data));

    let res: Awaited<ReturnType<typeof submit>> | undefined;
    const statements = await queries.during(async () => {
      res = await submit(ada, standup.id, answers);
    });
    expect(res?.status).toBe(200);
    expect(statements).toBe(2);

    const id = res?.body.data.id as number;
    const got = await readBack(ada, id);
    expect(got.status).toBe(200);
    expect(JSON.stringify(res?.body.data)).toBe(JSON.stringify(got.body.data));
    expect(res?.body.data.answers.map((a: { question: string }) => a.question)).toEqual(["Blockers?", "Done?", "Next?"]);

    const message = await db.chatMessage.findFirstOrThrow({ where: { report_id: id } });
    expect(message).toMatchObject({ kind: "report", channel_id: A.channels[0].id, delivery_state: "pending", deleted_at: null });
    expect(message.text).toBe(
      `${ada.realname} posted an update for Two statements\n\nBlockers?\nnone\nreally\n\nDone?\n-\n\nNext?\nship "it" <b>\u00e9</b>`,
    );
    const report = await db.report.findUniqueOrThrow({ where: { id } });
    expect(report).toMatchObject({ status: "submitted", user_id: ada.id, is_anonymous: false });
    expect(report.occurrence_id).toBe((await db.report.findUniqueOrThrow({ where: { id: first.body.data.id } })).occurrence_id);
    expect(report.submitted_at?.toISOString()).toBe(res?.body.data.posted_at);
  });

  it("joins today's scheduled occurrence in a transaction: BEGIN, read, roster row, write, COMMIT", async () => {
    const [, ada] = A.users;
    const standup = await createTestCheckin(A, { name: "Today", members: [ada] });
    const occurrence = await createTestOccurrence(standup, today(), []);
    const answers = standup.questions.map((q) => ({ question_id: q.id, text: "today" }));
    let res: Awaited<ReturnType<typeof submit>> | undefined;
    const statements = await queries.during(async () => {
      res = await submit(ada, standup.id, answers);
    });
    expect(res?.status).toBe(200);
    expect(statements).toBe(5);
    expect(await db.report.findUniqueOrThrow({ where: { id: res?.body.data.id } })).toMatchObject({ occurrence_id: occurrence.id });
    const member = await db.occurrenceMember.findUniqueOrThrow({
      where: { occurrence_id_user_id: { occurrence_id: occurrence.id, user_id: ada.id } },
    });
    expect(member.asked_at).not.toBeNull();
  });

  it("an anonymous report names nobody, and a listening webhook gets the same report the caller got", async () => {
    const [, , bob] = A.users;
    const standup = await createTestCheckin(A, { name: "Anonymous hooks", members: [bob, A.users[1], A.users[3]], is_confidential: true });
    const endpoint = await db.webhookEndpoint.create({
      data: { team_id: A.id, url: "https://hooks.example.com/submissions", events: ["report.submitted"], secret: "whsec_dGVzdA==" },
    });
    try {
      const answers = standup.questions.map((q) => ({ question_id: q.id, text: `a${q.id}` }));
      const res = await submit(bob, standup.id, answers, { is_anonymous: true });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ user_id: null, is_anonymous: true, is_confidential: true });
      // Held below the anonymity threshold (k = 3, issue 45): no webhook yet.
      expect(await db.webhookDelivery.count({ where: { endpoint_id: endpoint.id } })).toBe(0);
      // Two more people answer (named): k is reached, so the owner reads it back and the webhook goes out.
      for (const other of [A.users[1], A.users[3]]) expect((await submit(other, standup.id, answers)).status).toBe(200);
      const got = await readBack(A.admin, res.body.data.id);
      expect(JSON.stringify(res.body.data)).toBe(JSON.stringify(got.body.data));
      const deliveries = (await firstAttemptDeliveries({ endpoint_id: endpoint.id })).filter(
        (d) => (d.payload as { data: { id: number } }).data.id === res.body.data.id,
      );
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0].event_type).toBe("report.submitted");
      // jsonb keeps its own key order: compare values.
      expect((deliveries[0].payload as { data: unknown }).data).toStrictEqual(res.body.data);
      const message = await db.chatMessage.findFirstOrThrow({ where: { report_id: res.body.data.id } });
      expect(message.text.startsWith("An anonymous member posted an update for Anonymous hooks")).toBe(true);
      expect(message.text).not.toContain(bob.realname);
    } finally {
      await db.webhookEndpoint.delete({ where: { id: endpoint.id } });
    }
  });

  it("edits (never duplicates) the pending report that another transaction submits while the write waits for it", async () => {
    const [, , , cat] = A.users;
    const standup = await createTestCheckin(A, { name: "Pending race", members: [cat] });
    const occurrence = await createTestOccurrence(standup, today(), [cat]);
    const pending = await db.report.create({
      data: { team_id: A.id, checkin_id: standup.id, occurrence_id: occurrence.id, user_id: cat.id, status: "pending" },
    });
    const elsewhere = new Date("2026-01-02T03:04:05.006Z");
    await other.query("BEGIN");
    await other.query("UPDATE reports SET status = 'submitted', submitted_at = $2 WHERE id = $1", [pending.id, elsewhere]);
    const answers = standup.questions.map((q) => ({ question_id: q.id, text: "mine" }));
    const res = await whenOtherCommits(submit(cat, standup.id, answers));
    expect(res.status).toBe(200);
    // The run already has the member's report: this submission edits it (issue 41), keeping its submission time.
    expect(res.body.data.id).toBe(pending.id);
    const first = await db.report.findUniqueOrThrow({ where: { id: pending.id }, include: { answers: true } });
    expect(first.submitted_at?.toISOString()).toBe(elsewhere.toISOString());
    expect(first.answers.map((a) => a.text)).toEqual(standup.questions.map(() => "mine"));
    expect(await db.report.count({ where: { occurrence_id: occurrence.id, user_id: cat.id } })).toBe(1);
  });

  it("completes the pending report the scheduler creates while the submission waits for the roster row", async () => {
    const [, , , , dee] = A.users;
    const standup = await createTestCheckin(A, { name: "Asking race", members: [dee] });
    const occurrence = await createTestOccurrence(standup, today(), [dee]);
    // What askDueBatch does for a due member: mark them asked, then create their pending report.
    await other.query("BEGIN");
    await other.query("UPDATE occurrence_members SET asked_at = now() WHERE occurrence_id = $1 AND user_id = $2", [occurrence.id, dee.id]);
    const { rows } = await other.query(
      `INSERT INTO reports (team_id, checkin_id, occurrence_id, user_id, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'pending', now(), now()) RETURNING id`,
      [A.id, standup.id, occurrence.id, dee.id],
    );
    const answers = standup.questions.map((q) => ({ question_id: q.id, text: "early" }));
    const res = await whenOtherCommits(submit(dee, standup.id, answers));
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(rows[0].id);
    const reports = await db.report.findMany({ where: { occurrence_id: occurrence.id, user_id: dee.id } });
    expect(reports.map((r) => r.status)).toEqual(["submitted"]);
  });
});

describe("PATCH /v2/reports/{id} in two statements, or three in a transaction", () => {
  it("answers the report as GET reads it, re-renders the broadcast marked (edited), emits report.updated with the same report", async () => {
    const [, ada] = A.users;
    const standup = await createTestCheckin(A, { name: "Edits", members: [ada], days: [WEEKDAYS[(new Date().getUTCDay() + 3) % 7]] });
    const [q1, q2, q3] = standup.questions;
    await db.question.update({ where: { id: q3.id }, data: { position: -1 } });
    const created = await submit(
      ada,
      standup.id,
      standup.questions.map((q) => ({ question_id: q.id, text: `first ${q.id}` })),
    );
    expect(created.status).toBe(200);
    const id = created.body.data.id as number;
    // q2 is archived after the report answered it: it stays editable for this report.
    await db.question.update({ where: { id: q2.id }, data: { archived_at: new Date() } });
    const endpoint = await db.webhookEndpoint.create({
      data: { team_id: A.id, url: "https://hooks.example.com/edits", events: ["report.updated"], secret: "whsec_dGVzdA==" },
    });
    try {
      let res: Awaited<ReturnType<typeof edit>> | undefined;
      const statements = await queries.during(async () => {
        res = await edit(ada, id, [
          { question_id: q2.id, text: "second" },
          { question_id: q1.id, text: "" },
        ]);
      });
      expect(res?.status).toBe(200);
      // The optimistic read sees the listening webhook, so the edit runs in a transaction: BEGIN,
      // lock, read, write, then report.updated: endpoints, delivery row, its job; COMMIT.
      expect(statements).toBe(9);
      const got = await readBack(ada, id);
      expect(JSON.stringify(res?.body.data)).toBe(JSON.stringify(got.body.data));
      expect(res?.body.data.answers.map((a: { answer: string }) => a.answer)).toEqual([`first ${q3.id}`, "", "second"]);
      const deliveries = await firstAttemptDeliveries({ endpoint_id: endpoint.id });
      expect(deliveries.map((d) => d.event_type)).toEqual(["report.updated"]);
      expect((deliveries[0].payload as { data: unknown }).data).toStrictEqual(res?.body.data);
    } finally {
      await db.webhookEndpoint.delete({ where: { id: endpoint.id } });
    }
    const message = await db.chatMessage.findFirstOrThrow({ where: { report_id: id } });
    expect(message.delivery_state).toBe("pending");
    expect(message.text).toBe(
      `${ada.realname} posted an update for Edits (edited)\n\nAnything blocking you?\nfirst ${q3.id}\n\n` +
        "What did you do yesterday?\n-\n\nWhat will you do today?\nsecond",
    );
    const plain = await queries.during(async () => {
      expect((await edit(ada, id, [{ question_id: q1.id, text: "again" }])).status).toBe(200);
    });
    // No webhook: the read and the guarded write, no transaction.
    expect(plain).toBe(2);
    const again = await readBack(ada, id);
    expect(again.body.data.answers.map((a: { answer: string }) => a.answer)).toEqual([`first ${q3.id}`, "again", "second"]);
    expect((await db.chatMessage.findFirstOrThrow({ where: { report_id: id } })).text).toContain("What did you do yesterday?\nagain");
  });

  it("renders the answers another edit committed while this one waited for the row lock", async () => {
    const [, , bob] = A.users;
    const standup = await createTestCheckin(A, { name: "Edit race", members: [bob], days: [WEEKDAYS[(new Date().getUTCDay() + 3) % 7]] });
    const [q1, q2] = standup.questions;
    const created = await submit(
      bob,
      standup.id,
      standup.questions.map((q) => ({ question_id: q.id, text: "old" })),
    );
    const id = created.body.data.id as number;
    // The other edit does what every edit does (lib/domain/report-edit.ts): lock the report row,
    // write answers, stamp the report. Ours reads before it commits, so its guarded write must
    // wait, see the report changed, write nothing and run again under the lock.
    await other.query("BEGIN");
    await other.query("SELECT id FROM reports WHERE id = $1 FOR UPDATE", [id]);
    await other.query("UPDATE answers SET text = 'from the other edit' WHERE report_id = $1 AND question_id = $2", [id, q1.id]);
    await other.query("UPDATE reports SET updated_at = now() WHERE id = $1", [id]);
    const res = await whenOtherCommits(edit(bob, id, [{ question_id: q2.id, text: "mine" }]));
    expect(res.status).toBe(200);
    expect(res.body.data.answers.map((a: { answer: string }) => a.answer)).toEqual(["from the other edit", "mine", "old"]);
    const message = await db.chatMessage.findFirstOrThrow({ where: { report_id: id } });
    expect(message.text).toContain("What did you do yesterday?\nfrom the other edit");
    expect(message.text).toContain("What will you do today?\nmine");
  });

  it("writes nothing when the report row changed since the read (the optimistic guard)", async () => {
    const [, , , cy] = A.users;
    const standup = await createTestCheckin(A, { name: "Edit guard", members: [cy], days: [WEEKDAYS[(new Date().getUTCDay() + 3) % 7]] });
    const [q1] = standup.questions;
    const created = await submit(
      cy,
      standup.id,
      standup.questions.map((q) => ({ question_id: q.id, text: "kept" })),
    );
    const id = created.body.data.id as number;
    const actor = { teamId: A.id, userId: cy.id } as Actor;
    const ctx = await readEditContext(db, id, actor);
    expect(ctx).not.toBeNull();
    if (!ctx) return;
    // Someone else's edit commits between the read and the write.
    await other.query("UPDATE reports SET updated_at = now() WHERE id = $1", [id]);
    const write = { teamId: A.id, reportId: id, answers: [{ questionId: q1.id, text: "stale" }], now: new Date() };
    expect(await writeEdit(db, write, null, { version: ctx.version })).toBeNull();
    expect((await db.answer.findFirstOrThrow({ where: { report_id: id, question_id: q1.id } })).text).toBe("kept");
    // With the version as it is now, it writes.
    const fresh = await readEditContext(db, id, actor);
    const ids = await writeEdit(db, write, null, { version: fresh?.version ?? "" });
    expect(ids?.get(q1.id)).toBeGreaterThan(0);
    expect((await db.answer.findFirstOrThrow({ where: { report_id: id, question_id: q1.id } })).text).toBe("stale");
    // Not the actor's report: no context.
    expect(await readEditContext(db, id, { teamId: A.id, userId: A.users[0].id } as Actor)).toBeNull();
  });
});
