/**
 * Idempotency-Key on the v2 writes (issue #3) against the real test database: key syntax and
 * check order, replay (status, body, Idempotent-Replayed, no second write or broadcast), mismatch,
 * (team, user) scoping, stored business errors, concurrent duplicates fired in parallel, in-flight
 * 409 with Retry-After, the key free again as soon as a crashed holder's connection closes (issue
 * 13), expiry, and release of the key on rollback.
 */

import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as postPollRoute } from "@/app/v2/polls/route";
import { DELETE as deleteRoute, PATCH as patchRoute } from "@/app/v2/reports/[reportId]/route";
import { POST as postReportRoute } from "@/app/v2/reports/route";
import { POST as postStandupRoute } from "@/app/v2/standups/route";
import { canonicalJson } from "@/lib/api/cursor";
import { idempotencyLockId, parseIdempotencyKey, requestFingerprint, runIdempotent } from "@/lib/api/idempotency";
import { db } from "@/lib/db";
import { createTestCheckin, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";

type Checkin = Awaited<ReturnType<typeof createTestCheckin>>;

let A: TestTeam;
let admin: TestUser;
let m0: TestUser;
let m1: TestUser;
let m2: TestUser;

const answersFor = (c: Checkin, prefix = "A") => c.questions.map((q, i) => ({ question_id: q.id, text: `${prefix}${i}` }));
/** A valid POST /v2/reports body for `standup`: one answer per question, `${prefix}0`, `${prefix}1`, … */
const reportBody = (standup: Checkin, prefix = "A") => ({ standup_id: standup.id, answers: answersFor(standup, prefix) });

/** A new standup of team A whose only member is `member`, a fresh Idempotency-Key, and a valid report body for it. */
async function reportRequest(member: TestUser) {
  const standup = await createTestCheckin(A, { members: [member] });
  return { standup, key: uuid(), body: reportBody(standup) };
}

const postReport = (user: TestUser | undefined, body: unknown, key?: string) =>
  call(postReportRoute, {
    method: "POST",
    path: "/v2/reports",
    key: user?.key,
    body,
    headers: key === undefined ? {} : { "Idempotency-Key": key },
  });
const uuid = () => crypto.randomUUID();
const records = (user: TestUser, key: string) => db.idempotencyRecord.findMany({ where: { user_id: user.id, key } });

beforeAll(async () => {
  A = await createTestTeam({ members: 3 });
  [admin, m0, m1, m2] = A.users;
});

describe("key syntax", () => {
  it("accepts 1-255 visible ASCII characters, bare or quoted", () => {
    expect(parseIdempotencyKey(null)).toBeNull();
    expect(parseIdempotencyKey("abc-123")).toBe("abc-123");
    expect(parseIdempotencyKey('"abc-123"')).toBe("abc-123");
    expect(parseIdempotencyKey("x".repeat(255))).toHaveLength(255);
    for (const bad of ["", "a b", "x".repeat(256), "ключ", '"abc', '""', '"a"b"', "tab\there"]) {
      expect(() => parseIdempotencyKey(bad), bad).toThrow();
    }
  });

  it("fingerprints canonical JSON (key order does not matter, values do)", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    const f = (body: unknown, params = {}) => requestFingerprint({ method: "POST", route: "/v2/reports", params, body });
    expect(f({ a: 1, b: 2 })).toBe(f({ b: 2, a: 1 }));
    expect(f({ a: 1 })).not.toBe(f({ a: 2 }));
    expect(f({ a: 1 }, { reportId: "1" })).not.toBe(f({ a: 1 }, { reportId: "2" }));
  });

  it("400 for a malformed key, checked after authentication and before the body; nothing stored", async () => {
    const standup = await createTestCheckin(A, { members: [m0] });
    const unauth = await postReport(undefined, reportBody(standup), "a b");
    expect(unauth.status).toBe(401);
    for (const key of ["a b", "x".repeat(256), '"unterminated']) {
      const r = await postReport(m0, { nonsense: true }, key);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
      expect(r.body.error.message).toContain("Idempotency-Key");
    }
    expect(await db.idempotencyRecord.count({ where: { user_id: m0.id } })).toBe(0);
    expect(await db.report.count({ where: { checkin_id: standup.id } })).toBe(0);
  });

  it("validation 400s are not stored: the key stays usable", async () => {
    const standup = await createTestCheckin(A, { members: [m0] });
    const key = uuid();
    const bad = await postReport(m0, { standup_id: standup.id, answers: answersFor(standup).slice(1) }, key);
    expect(bad.status).toBe(400);
    expect(await records(m0, key)).toHaveLength(0);
    const good = await postReport(m0, reportBody(standup), key);
    expect(good.status).toBe(200);
    expect(good.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("replay", () => {
  it("replays POST /v2/reports: same status and body, Idempotent-Replayed, no second report or broadcast", async () => {
    const { standup, key, body } = await reportRequest(m0);
    const first = await postReport(m0, body, key);
    expect(first.status).toBe(200);
    const second = await postReport(m0, { answers: body.answers, standup_id: body.standup_id }, `"${key}"`);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.headers.get("content-type")).toContain("application/json");
    expect(await db.report.count({ where: { checkin_id: standup.id } })).toBe(1);
    expect(await db.chatMessage.count({ where: { checkin_id: standup.id, kind: "report" } })).toBe(1);
    const [record] = await records(m0, key);
    expect(record.response_status).toBe(200);
    expect(record.locked_until).toBeNull();
    expect(record.expires_at.getTime() - record.created_at.getTime()).toBe(24 * 3600 * 1000);
  });

  it("a replayed create still answers 201 (standups and polls)", async () => {
    const key = uuid();
    const body = { questions: [{ text: "Q" }], days: ["Mon"], time: "10:00", broadcast_channel: A.channels[0].chat_id };
    const send = () =>
      call(postStandupRoute, { method: "POST", path: "/v2/standups", key: admin.key, body, headers: { "Idempotency-Key": key } });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await db.checkin.count({ where: { team_id: A.id, owner_id: admin.id, name: first.body.data.name } })).toBe(1);

    const pollKey = uuid();
    const pollBody = { name: "Lunch", question: "Where?", choices: ["a", "b"], broadcast_channel: A.channels[0].chat_id };
    const sendPoll = () =>
      call(postPollRoute, { method: "POST", path: "/v2/polls", key: admin.key, body: pollBody, headers: { "Idempotency-Key": pollKey } });
    const p1 = await sendPoll();
    const p2 = await sendPoll();
    expect([p1.status, p2.status]).toEqual([201, 201]);
    expect(p2.body).toEqual(p1.body);
    expect(await db.chatMessage.count({ where: { checkin_id: p1.body.data.id, kind: "poll" } })).toBe(1);
  });

  it("PATCH and DELETE replay too", async () => {
    const standup = await createTestCheckin(A, { members: [m1] });
    const created = await postReport(m1, reportBody(standup));
    const id = String(created.body.data.id);
    const patchKey = uuid();
    const patchBody = { answers: [{ question_id: standup.questions[0].id, text: "edited" }] };
    const p = () =>
      call(patchRoute, {
        method: "PATCH",
        path: `/v2/reports/${id}`,
        key: m1.key,
        body: patchBody,
        params: { reportId: id },
        headers: { "Idempotency-Key": patchKey },
      });
    const p1 = await p();
    const p2 = await p();
    expect(p1.status).toBe(200);
    expect(p2.text).toBe(p1.text);
    expect(p2.headers.get("idempotent-replayed")).toBe("true");

    const delKey = uuid();
    const d = () =>
      call(deleteRoute, {
        method: "DELETE",
        path: `/v2/reports/${id}`,
        key: m1.key,
        params: { reportId: id },
        headers: { "Idempotency-Key": delKey },
      });
    const d1 = await d();
    const d2 = await d();
    expect(d1.status).toBe(200);
    expect(d2.status).toBe(200);
    expect(d2.body).toEqual({ success: true });
    expect(d2.headers.get("idempotent-replayed")).toBe("true");
    // the same key on another report is a different request
    const other = await call(deleteRoute, {
      method: "DELETE",
      path: "/v2/reports/1",
      key: m1.key,
      params: { reportId: "1" },
      headers: { "Idempotency-Key": delKey },
    });
    expect(other.status).toBe(422);
  });

  it("422 MISMATCHED_IDEMPOTENCY_BODY for the same key with another body", async () => {
    const standup = await createTestCheckin(A, { members: [m0] });
    const key = uuid();
    expect((await postReport(m0, reportBody(standup), key)).status).toBe(200);
    const r = await postReport(m0, reportBody(standup, "B"), key);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe("MISMATCHED_IDEMPOTENCY_BODY");
    expect(await db.report.count({ where: { checkin_id: standup.id } })).toBe(1);
  });

  it("keys are scoped to (team, user): another user with the same key runs their own request", async () => {
    const standup = await createTestCheckin(A, { members: [m0, m2] });
    const key = uuid();
    const body = reportBody(standup);
    const a = await postReport(m0, body, key);
    const b = await postReport(m2, body, key);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(b.body.data.user_id).toBe(m2.chat_id);
    expect(await db.report.count({ where: { checkin_id: standup.id } })).toBe(2);
  });

  it("stores deterministic business errors (404) and replays them", async () => {
    const standup = await createTestCheckin(A, { members: [m0], state: "paused" });
    const key = uuid();
    const body = reportBody(standup);
    const first = await postReport(m0, body, key);
    expect(first.status).toBe(404);
    await db.checkin.update({ where: { id: standup.id }, data: { state: "active" } });
    const again = await postReport(m0, body, key);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await db.report.count({ where: { checkin_id: standup.id } })).toBe(0);
  });
});

describe("concurrency and locks", () => {
  it("concurrent duplicates: exactly one report and one broadcast; the others get 409 or a replay", async () => {
    const { standup, key, body } = await reportRequest(m1);
    const results = await Promise.all(Array.from({ length: 8 }, () => postReport(m1, body, key)));
    const fresh = results.filter((r) => r.status === 200 && r.headers.get("idempotent-replayed") === null);
    const replayed = results.filter((r) => r.status === 200 && r.headers.get("idempotent-replayed") === "true");
    const busy = results.filter((r) => r.status === 409);
    expect(fresh).toHaveLength(1);
    expect(replayed.length + busy.length).toBe(7);
    for (const r of busy) {
      expect(r.body.error.code).toBe("IDEMPOTENCY_KEY_IN_USE");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    for (const r of replayed) expect(r.text).toBe(fresh[0].text);
    expect(await db.report.count({ where: { checkin_id: standup.id } })).toBe(1);
    expect(await db.chatMessage.count({ where: { checkin_id: standup.id, kind: "report" } })).toBe(1);
    const after = await postReport(m1, body, key);
    expect(after.status).toBe(200);
    expect(after.headers.get("idempotent-replayed")).toBe("true");
  });

  it("409 with Retry-After while a request holds the key; a crashed holder's lock is gone at once", async () => {
    const { standup, key, body } = await reportRequest(m2);
    // Another process is in the middle of this request: its transaction holds the key's lock.
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    holder.on("error", () => {});
    await holder.query("BEGIN");
    await holder.query("SELECT pg_advisory_xact_lock($1::bigint)", [idempotencyLockId(m2.actor, key).toString()]);
    const busy = await postReport(m2, body, key);
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe("IDEMPOTENCY_KEY_IN_USE");
    expect(busy.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await db.report.count({ where: { checkin_id: standup.id } })).toBe(0);

    // That process crashes (its socket closes without COMMIT or ROLLBACK): a retry proceeds within 5 s.
    const crashedAt = Date.now();
    (holder as unknown as { connection: { stream: { destroy: () => void } } }).connection.stream.destroy();
    let retry = await postReport(m2, body, key);
    while (retry.status === 409 && Date.now() - crashedAt < 5000) {
      await new Promise((r) => setTimeout(r, 50));
      retry = await postReport(m2, body, key);
    }
    expect(retry.status).toBe(200);
    expect(Date.now() - crashedAt).toBeLessThan(5000);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(await db.report.count({ where: { checkin_id: standup.id } })).toBe(1);
    const [record] = await records(m2, key);
    expect(record.response_status).toBe(200);
  });

  it("an unfinished record left by an older version (locked_until in the future) does not block the key", async () => {
    const { standup, key, body } = await reportRequest(m1);
    const fingerprint = requestFingerprint({ method: "POST", route: "/v2/reports", params: {}, body });
    const now = Date.now();
    await db.idempotencyRecord.create({
      data: {
        team_id: A.id,
        user_id: m1.id,
        key,
        fingerprint,
        locked_until: new Date(now + 60_000),
        expires_at: new Date(now + 86_400_000),
      },
    });
    const r = await postReport(m1, body, key);
    expect(r.status).toBe(200);
    expect(await db.report.count({ where: { checkin_id: standup.id } })).toBe(1);
    const [record] = await records(m1, key);
    expect(record.response_status).toBe(200);
  });

  it("an expired record is ignored: the request runs again", async () => {
    const { standup, key, body } = await reportRequest(m0);
    expect((await postReport(m0, body, key)).status).toBe(200);
    await db.idempotencyRecord.updateMany({ where: { user_id: m0.id, key }, data: { expires_at: new Date(Date.now() - 1000) } });
    const again = await postReport(m0, body, key);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(await db.report.count({ where: { checkin_id: standup.id } })).toBe(2);
  });

  it("a rolled-back write releases the key and leaves no business rows", async () => {
    const standup = await createTestCheckin(A, { members: [m0] });
    const key = uuid();
    await expect(
      runIdempotent({
        actor: m0.actor,
        key,
        fingerprint: () => "f1",
        run: async (tx) => {
          await tx.report.create({
            data: { team_id: A.id, checkin_id: standup.id, user_id: m0.id, status: "submitted", submitted_at: new Date() },
          });
          throw new Error("boom");
        },
      }),
    ).rejects.toThrow("boom");
    expect(await records(m0, key)).toHaveLength(0);
    expect(await db.report.count({ where: { checkin_id: standup.id } })).toBe(0);
    const retry = await runIdempotent({
      actor: m0.actor,
      key,
      fingerprint: () => "f1",
      run: async () => ({ status: 200, body: { ok: true } }),
    });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ ok: true });
  });
});
