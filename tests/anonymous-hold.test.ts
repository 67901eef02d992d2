/**
 * Anonymity that holds, on the wire (issue 45): with the team's k = 3, the Slack posts and the
 * `report.submitted` webhooks of an anonymous standup's reports are held while fewer than 3 people
 * answered the run, then all released (through the outbox and the real worker, to the fake Slack
 * and the local webhook receiver) with coarse times once the third answers; the `poll.closed`
 * webhook of an anonymous poll shows suppressed results below k and the counts at k.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { setAnonymityThreshold } from "@/lib/domain/anonymity";
import { listChannelFeed } from "@/lib/domain/channel-feed";
import { closePollNow } from "@/lib/domain/poll-lifecycle";
import { submitReport } from "@/lib/domain/report-writes";
import { createWebhook } from "@/lib/domain/webhooks";
import type { JobWorker } from "@/lib/jobs/worker";
import type { FakeSlack } from "@/tests/fakes/slack";
import { startFakeSlackForTeam, startSlackDeliveryWorker } from "@/tests/fakes/slack-env";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/fakes/webhook-receiver";
import { createTestCheckin, createTestOccurrence, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";
import { createTestVote } from "@/tests/poll-fixtures";

process.env.WEBHOOKS_ALLOW_PRIVATE = "true";

let fake: FakeSlack;
let worker: JobWorker;
let receiver: WebhookReceiver;
let team: TestTeam;

beforeAll(async () => {
  await useIsolatedDatabase("anonhold");
  team = await createTestTeam({ members: 3 });
  const teamChatId = (await db.team.findUniqueOrThrow({ where: { id: team.id } })).chat_id;
  fake = await startFakeSlackForTeam(team);
  receiver = await startWebhookReceiver();
  const { secret } = await createWebhook(team.admin.actor, { url: receiver.url, events: ["report.submitted", "poll.closed"] });
  receiver.setSecret(secret);
  worker = await startSlackDeliveryWorker(fake, teamChatId);
});

afterAll(async () => {
  await worker?.stop();
  await fake?.close();
  await receiver?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("anonymous reports held until k (issue 45)", () => {
  it("posts nothing and sends no report.submitted below k; at k releases all, with coarse times", async () => {
    const [admin, m0, m1, m2] = team.users;
    const standup = await createTestCheckin(team, { name: "Pulse", owner: admin, members: [admin, m0, m1, m2], is_anonymous: true });
    const channel = team.channels[0].chat_id;
    const submit = (u: TestUser, text: string) =>
      submitReport(u.actor, { standupId: standup.id, answers: standup.questions.map((q) => ({ questionId: q.id, text })) });
    const mine = (text: string) => fake.messagesIn(channel).filter((m) => m.text.includes(text));
    const hooks = (ids: number[]) =>
      receiver.accepted().filter((x) => x.payload?.type === "report.submitted" && ids.includes(x.payload.data.id as number));

    const r0 = await submit(m0, "held pulse zero");
    const r1 = await submit(m1, "held pulse one");
    await sleep(2_000);
    expect(mine("held pulse")).toEqual([]);
    expect(hooks([r0.reportId, r1.reportId])).toEqual([]);
    const stored = await db.chatMessage.findMany({ where: { report_id: { in: [r0.reportId, r1.reportId] } } });
    expect(stored.map((m) => m.delivery_state)).toEqual(["held", "held"]);
    // The built-in channel feed does not show them either.
    const feed = await listChannelFeed(admin.actor, { channel: team.channels[0].chat_id });
    expect(feed.messages.filter((m) => m.text.includes("held pulse"))).toEqual([]);

    const r2 = await submit(m2, "held pulse two");
    const ids = [r0.reportId, r1.reportId, r2.reportId];
    await fake.waitFor(() => mine("held pulse").length === 3, 15_000, "the three posts");
    await receiver.waitFor(() => hooks(ids).length === 3, 15_000);
    const postedAt = hooks(ids).map((x) => x.payload?.data.posted_at as string);
    // Coarse: the run's date at 00:00 in the standup's timezone (UTC here), plus a fraction of a second.
    const date = (await db.report.findUniqueOrThrow({ where: { id: r2.reportId }, include: { occurrence: true } })).occurrence?.date;
    const day = (date ?? new Date()).toISOString().slice(0, 10);
    for (const at of postedAt) expect(at).toMatch(new RegExp(`^${day}T00:00:00\\.\\d{3}Z$`));
  });

  it("lowering k releases the runs that now reach it", async () => {
    const [admin, m0, m1] = team.users;
    const standup = await createTestCheckin(team, { name: "Lowered", owner: admin, members: [admin, m0, m1], is_anonymous: true });
    const channel = team.channels[0].chat_id;
    const submit = (u: TestUser, text: string) =>
      submitReport(u.actor, { standupId: standup.id, answers: standup.questions.map((q) => ({ questionId: q.id, text })) });
    const r0 = await submit(m0, "lowered zero");
    const r1 = await submit(m1, "lowered one");
    await sleep(1_000);
    expect(fake.messagesIn(channel).filter((m) => m.text.includes("lowered"))).toEqual([]);
    await setAnonymityThreshold(admin.actor, 2);
    try {
      await fake.waitFor(() => fake.messagesIn(channel).filter((m) => m.text.includes("lowered")).length === 2, 15_000, "the two posts");
      await receiver.waitFor(
        (r) =>
          r.filter((x) => x.payload?.type === "report.submitted" && [r0.reportId, r1.reportId].includes(x.payload.data.id as number))
            .length === 2,
        15_000,
      );
    } finally {
      await setAnonymityThreshold(admin.actor, 3);
    }
  });

  it("poll.closed of an anonymous poll: suppressed results below k, the counts at k", async () => {
    const [admin, m0, m1, m2] = team.users;
    const closed = async (voters: TestUser[]) => {
      const poll = await createTestCheckin(team, {
        kind: "poll",
        owner: admin,
        is_anonymous: true,
        questions: [{ text: "Pick one", answer_type: "multiple_choice", choices: ["tea", "coffee"] }],
      });
      const occ = await createTestOccurrence(poll, "2026-06-01", [admin, m0, m1, m2]);
      for (const u of voters) await createTestVote(poll, occ.id, u, 0, { choice: "tea" });
      await closePollNow(admin.actor, poll.id);
      await receiver.waitFor((r) => r.some((x) => x.payload?.type === "poll.closed" && x.payload.data.id === occ.id), 15_000);
      return receiver.accepted().find((x) => x.payload?.type === "poll.closed" && x.payload.data.id === occ.id)?.payload?.data;
    };
    const below = await closed([m0, m1]);
    expect(below?.results).toEqual({ suppressed: true, answers_needed: 1, questions: [] });
    const at = await closed([m0, m1, m2]);
    expect(at?.results).toEqual({
      suppressed: false,
      answers_needed: 0,
      questions: [
        {
          question_id: expect.any(Number),
          choices: [
            { text: "tea", votes: 3 },
            { text: "coffee", votes: 0 },
          ],
        },
      ],
    });
  });
});
