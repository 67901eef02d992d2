/**
 * Erasure and the chat platform (issue 45): erasing a person deletes their report broadcasts on
 * the platform — the fake Slack on 127.0.0.1 receives `chat.delete` for each — through the outbox
 * and the real delivery worker (as lib/chat/delivery.test.ts delivers), on an isolated database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { erasePerson } from "@/lib/domain/erasure";
import { submitReport } from "@/lib/domain/report-writes";
import type { JobWorker } from "@/lib/jobs/worker";
import type { FakeSlack } from "@/tests/fakes/slack";
import { startFakeSlackForTeam, startSlackDeliveryWorker } from "@/tests/fakes/slack-env";
import { createTestCheckin, createTestTeam, type TestTeam } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";

let fake: FakeSlack;
let worker: JobWorker;
let team: TestTeam;
let teamChatId = "";

beforeAll(async () => {
  await useIsolatedDatabase("erasure");
  team = await createTestTeam({ members: 2 });
  teamChatId = (await db.team.findUniqueOrThrow({ where: { id: team.id } })).chat_id;
  fake = await startFakeSlackForTeam(team);
  worker = await startSlackDeliveryWorker(fake, teamChatId);
});

afterAll(async () => {
  await worker?.stop();
  await fake?.close();
});

describe("erasure on the chat platform", () => {
  it("deletes every report broadcast of the erased person on Slack", async () => {
    const standup = await createTestCheckin(team, { name: "Daily" });
    const [admin, person, other] = team.users;
    const submit = (user: typeof person, text: string) =>
      submitReport(user.actor, { standupId: standup.id, answers: standup.questions.map((q) => ({ questionId: q.id, text })) });
    await submit(person, "erase me one");
    await submit(other, "keep me");
    const channel = team.channels[0].chat_id;
    const posted = () => fake.messagesIn(channel);
    await fake.waitFor(() => posted().filter((m) => /erase me one|keep me/.test(m.text)).length === 2, 15_000, "both posts");

    const tsOf = (text: string) => posted().find((m) => m.text.includes(text))?.ts;
    const [mineTs, theirsTs] = [tsOf("erase me one"), tsOf("keep me")];
    expect(mineTs).toBeDefined();

    await erasePerson(admin.actor, { userId: person.id, confirm: person.email });
    const deleted = () => fake.callsOf("chat.delete").map((c) => c.args.ts);
    await fake.waitFor(() => deleted().includes(mineTs), 15_000, "chat.delete of the erased person's broadcast");
    expect(deleted()).not.toContain(theirsTs);
  });
});
