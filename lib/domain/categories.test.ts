/**
 * Categorization runs against the real test database, with a local fake OpenAI-compatible server
 * (tests/fakes/openai.ts) where a model is configured: status transitions and persisted results,
 * stable categories across instances, anonymous answers reaching the model without identities,
 * fallback to offline on model errors and timeouts, retries ending `failed`, the debounced
 * "response arrived" hook, and the sweep + worker categorizing a pending instance by themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LlmConfig } from "@/lib/categorize/llm";
import { db } from "@/lib/db";
import { CATEGORIZE_DEBOUNCE_SECONDS, onOpenEndedResponse, runCategorization, sweepCategorizations } from "@/lib/domain/categories";
import { startWorker } from "@/lib/jobs/worker";
import { MEETING_AND_REVIEW_ANSWERS } from "@/tests/categorize-answers";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fakes/openai";
import { createTestCheckin, createTestOccurrence, createTestTeam, dispatchJobOutbox, type TestTeam } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";

const ANSWERS = MEETING_AND_REVIEW_ANSWERS;

let team: TestTeam;
let fake: FakeOpenAi;
let llm: LlmConfig;

beforeAll(async () => {
  // Its own database: this file runs a job worker (see tests/isolated-db.ts).
  await useIsolatedDatabase("categorize");
  team = await createTestTeam({ members: 6 });
  fake = await startFakeOpenAi();
  llm = { baseUrl: fake.baseUrl, apiKey: "test-key", model: "fake-model", timeoutMs: 2000 };
});

afterAll(async () => {
  await fake.close();
});

let day = 0;
/** An anonymous-or-not poll with one open-ended question, one instance, and the given answers as votes. */
async function pollWithAnswers(
  answers: string[],
  opts: { anonymous?: boolean; poll?: Awaited<ReturnType<typeof createTestCheckin>> } = {},
) {
  const poll =
    opts.poll ??
    (await createTestCheckin(team, {
      kind: "poll",
      is_anonymous: opts.anonymous ?? false,
      questions: [{ text: "What should we improve?", answer_type: "open_ended" }],
    }));
  day += 1;
  const occurrence = await createTestOccurrence(poll, `2026-0${1 + (day % 9)}-${String(1 + (day % 27)).padStart(2, "0")}`, team.users);
  const question = poll.questions[0];
  for (const [i, text] of answers.entries()) {
    await db.vote.create({
      data: {
        team_id: team.id,
        occurrence_id: occurrence.id,
        question_id: question.id,
        user_id: team.users[i % team.users.length].id,
        text,
      },
    });
  }
  return { poll, occurrence, question, ref: { occurrenceId: occurrence.id, questionId: question.id } };
}

const readCategorization = (ref: { occurrenceId: number; questionId: number }) =>
  db.categorization.findUniqueOrThrow({
    where: { occurrence_id_question_id: { occurrence_id: ref.occurrenceId, question_id: ref.questionId } },
  });

describe("runCategorization (offline)", () => {
  it("completes with counts, per-answer categories and persisted question categories", async () => {
    const { ref, question } = await pollWithAnswers(ANSWERS);
    const result = await runCategorization(ref, { llm: null });
    expect(result.status).toBe("completed");
    const row = await readCategorization(ref);
    expect(row.status).toBe("completed");
    expect(row.engine).toBe("offline");
    expect(row.attempts).toBe(1);
    expect(row.completed_at).not.toBeNull();
    expect(row.categories).toEqual([
      { name: "Code review", count: 3 },
      { name: "Meetings", count: 3 },
    ]);
    const votes = await db.vote.findMany({ where: { occurrence_id: ref.occurrenceId }, orderBy: { id: "asc" } });
    expect(votes.map((v) => v.categories[0])).toEqual(["Meetings", "Meetings", "Meetings", "Code review", "Code review", "Code review"]);
    const stored = await db.category.findMany({ where: { question_id: question.id }, orderBy: { name: "asc" } });
    expect(stored.map((c) => [c.name, c.created_by])).toEqual([
      ["Code review", "offline"],
      ["Meetings", "offline"],
    ]);
  });

  it("keeps category names from one instance to the next and only adds new ones", async () => {
    const first = await pollWithAnswers(ANSWERS);
    await runCategorization(first.ref, { llm: null });
    const second = await pollWithAnswers(
      ["Shorter meetings please.", "Nobody picks up code review.", "Flaky tests again.", "The flaky tests block merges."],
      { poll: first.poll },
    );
    await runCategorization(second.ref, { llm: null });
    const votes = await db.vote.findMany({ where: { occurrence_id: second.occurrence.id }, orderBy: { id: "asc" } });
    expect(votes[0].categories[0]).toBe("Meetings");
    expect(votes[1].categories[0]).toBe("Code review");
    expect(votes[2].categories[0]).toBe(votes[3].categories[0]);
    const names = (await db.category.findMany({ where: { question_id: first.question.id }, orderBy: { id: "asc" } })).map((c) => c.name);
    expect(names.slice(0, 2).sort()).toEqual(["Code review", "Meetings"]);
    expect(names).toContain(votes[2].categories[0]);
    // The first instance is untouched.
    expect((await readCategorization(first.ref)).categories).toEqual([
      { name: "Code review", count: 3 },
      { name: "Meetings", count: 3 },
    ]);
  });
});

describe("runCategorization with a language model", () => {
  it("sends anonymous answers without any identity and stores the model's categories", async () => {
    const { ref, question } = await pollWithAnswers(ANSWERS, { anonymous: true });
    fake.requests.length = 0;
    fake.respond = (req) => {
      const user = JSON.parse(req.body.messages[1].content);
      return {
        content: {
          assignments: user.answers.map((a: { i: number; text: string }) => ({
            i: a.i,
            categories: /meeting/i.test(a.text) ? ["Meeting load"] : ["Reviews", ...(a.i === 5 ? ["Speed"] : [])],
          })),
        },
      };
    };
    const result = await runCategorization(ref, { llm });
    expect(result).toMatchObject({ status: "completed", engine: "model:fake-model" });
    expect(fake.requests).toHaveLength(1);
    const sent = JSON.stringify(fake.requests[0].body);
    for (const u of team.users) for (const identity of [u.chat_id, u.email, u.realname, u.username]) expect(sent).not.toContain(identity);
    expect(fake.requests[0].headers.authorization).toBe("Bearer test-key");
    expect(fake.requests[0].body.model).toBe("fake-model");
    const user = JSON.parse(fake.requests[0].body.messages[1].content);
    expect(Object.keys(user.answers[0]).sort()).toEqual(["i", "text"]);
    const row = await readCategorization(ref);
    expect(row.engine).toBe("model:fake-model");
    expect(row.categories).toEqual([
      { name: "Meeting load", count: 3 },
      { name: "Reviews", count: 3 },
      { name: "Speed", count: 1 },
    ]);
    const stored = await db.category.findMany({ where: { question_id: question.id }, orderBy: { name: "asc" } });
    expect(stored.map((c) => c.created_by)).toEqual(["model:fake-model", "model:fake-model", "model:fake-model"]);
    // The offline engine can keep matching the model's categories later.
    expect(Object.keys(stored[0].keywords as object)).toContain("meeting");
  });

  it.each([
    ["an HTTP error", () => ({ status: 500, body: '{"error":"boom"}' }), /HTTP 500/],
    ["a reply that is not the expected JSON", () => ({ content: { nope: true } }), /expected shape/],
    ["a timeout", () => "hang" as const, /did not answer within/],
  ])("falls back to offline on %s and keeps the reason", async (_label, reply, reason) => {
    const { ref } = await pollWithAnswers(ANSWERS);
    fake.respond = reply as FakeOpenAi["respond"];
    const result = await runCategorization(ref, { llm: { ...llm, timeoutMs: 300 } });
    expect(result).toMatchObject({ status: "completed", engine: "offline" });
    const row = await readCategorization(ref);
    expect(row.status).toBe("completed");
    expect(row.engine).toBe("offline");
    expect(row.error).toMatch(reason);
    expect(row.categories).toEqual([
      { name: "Code review", count: 3 },
      { name: "Meetings", count: 3 },
    ]);
  });
});

describe("failures", () => {
  it("goes back to pending with the reason while attempts remain, then ends failed", async () => {
    const { ref } = await pollWithAnswers(ANSWERS);
    // A real database failure: a trigger that refuses category updates of this instance's votes.
    const fn = `fail_votes_${ref.occurrenceId}`;
    await db.$executeRawUnsafe(
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'simulated outage'; END $$`,
    );
    await db.$executeRawUnsafe(
      `CREATE TRIGGER ${fn} BEFORE UPDATE ON votes FOR EACH ROW WHEN (NEW.occurrence_id = ${ref.occurrenceId}) EXECUTE FUNCTION ${fn}()`,
    );
    try {
      const retry = await runCategorization(ref, { llm: null, attempt: 1, maxAttempts: 2 });
      expect(retry.status).toBe("retry");
      let row = await readCategorization(ref);
      expect(row.status).toBe("pending");
      expect(row.error).toMatch(/simulated outage/);
      const failed = await runCategorization(ref, { llm: null, attempt: 2, maxAttempts: 2 });
      expect(failed.status).toBe("failed");
      row = await readCategorization(ref);
      expect(row.status).toBe("failed");
      expect(row.attempts).toBe(2);
      expect(row.error).toMatch(/simulated outage/);
      // Nothing half-written: the votes kept no categories.
      const votes = await db.vote.findMany({ where: { occurrence_id: ref.occurrenceId } });
      expect(votes.every((v) => v.categories.length === 0)).toBe(true);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER ${fn} ON votes`);
      await db.$executeRawUnsafe(`DROP FUNCTION ${fn}()`);
    }
  });
});

describe("queue: the response hook, the sweep and the worker", () => {
  it("debounces runs per instance and question, and the sweep + worker categorize a pending instance", async () => {
    const worker = await startWorker({ connectionString: process.env.DATABASE_URL as string, log: () => {}, crontab: "" });
    try {
      const hooked = await pollWithAnswers(ANSWERS.slice(0, 2));
      const key = `categorize:${hooked.ref.occurrenceId}:${hooked.ref.questionId}`;
      await db.$transaction((tx) => onOpenEndedResponse(tx, { ...hooked.ref, teamId: team.id }));
      await new Promise((r) => setTimeout(r, 50));
      const before = Date.now();
      await db.$transaction((tx) => onOpenEndedResponse(tx, { ...hooked.ref, teamId: team.id }));
      await dispatchJobOutbox();
      const jobs = await db.$queryRaw<Array<{ run_at: Date }>>`SELECT run_at FROM graphile_worker._private_jobs WHERE key = ${key}`;
      expect(jobs).toHaveLength(1);
      expect(jobs[0].run_at.getTime()).toBeGreaterThanOrEqual(before + (CATEGORIZE_DEBOUNCE_SECONDS - 2) * 1000);
      expect((await readCategorization(hooked.ref)).status).toBe("pending");

      // An instance with answers and a pending row but no job (as the demo seed leaves it).
      const seeded = await pollWithAnswers(ANSWERS);
      await db.categorization.create({ data: { occurrence_id: seeded.occurrence.id, question_id: seeded.question.id, team_id: team.id } });
      expect(await sweepCategorizations({ teamId: team.id })).toBeGreaterThanOrEqual(1);
      await dispatchJobOutbox();
      const deadline = Date.now() + 20_000;
      while ((await readCategorization(seeded.ref)).status !== "completed" && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect((await readCategorization(seeded.ref)).status).toBe("completed");
      // The debounced one is still waiting, and the sweep does not hurry or duplicate it.
      expect((await readCategorization(hooked.ref)).status).toBe("pending");
      const again = await db.$queryRaw<Array<{ run_at: Date }>>`SELECT run_at FROM graphile_worker._private_jobs WHERE key = ${key}`;
      expect(again).toEqual(jobs);
      await db.$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE key = ${key}`;
    } finally {
      await worker.stop();
    }
  });
});
