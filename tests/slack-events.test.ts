/**
 * Slack membership events drive the workspace sync (issue 11): a signed Events API `team_join`
 * posted to our route enqueues `slack_sync`, and the real graphile-worker runner imports the new
 * person from the fake Slack Web API (tests/fakes/slack.ts, HTTP on 127.0.0.1). Events that do not
 * change membership enqueue nothing. Runs on its own database (it runs a worker).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as eventsRoute } from "@/app/integrations/slack/events/route";
import { SLACK_SYNC_JOB_KEY } from "@/lib/chat/slack-sync";
import { db } from "@/lib/db";
import { type JobWorker, startWorker } from "@/lib/jobs/worker";
import { type FakeSlack, startFakeSlack } from "@/tests/fakes/slack";
import { pointSlackEnvAtFake, postSignedToSlack } from "@/tests/fakes/slack-env";
import { createTestTeam, dispatchJobOutbox, type TestTeam } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";

const SECRET = "slack-signing-secret-for-events";
let fake: FakeSlack;
let team: TestTeam;
let worker: JobWorker | null = null;

beforeAll(async () => {
  await useIsolatedDatabase("slackevents");
  team = await createTestTeam({ members: 1 });
  fake = await startFakeSlack({ users: [], channels: [] });
  await pointSlackEnvAtFake(fake, team.id, SECRET);
});

afterAll(async () => {
  await worker?.stop();
  await fake?.close();
});

function postEvent(event: Record<string, unknown>) {
  const body = JSON.stringify({ type: "event_callback", team_id: "TFAKE", event_id: `Ev${Date.now()}`, event });
  return postSignedToSlack(eventsRoute, "/integrations/slack/events", body, { secret: SECRET });
}

/** Sync jobs queued, once the job outbox has been handed to graphile-worker. */
const queuedSyncs = async () => {
  await dispatchJobOutbox();
  return (await db.$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker._private_jobs WHERE key = ${SLACK_SYNC_JOB_KEY}`).length;
};

describe("Slack events", () => {
  it("a message event is acknowledged and enqueues nothing", async () => {
    // The worker's own start-up creates the queue schema; without crontab it enqueues no sync.
    worker = await startWorker({ connectionString: process.env.DATABASE_URL as string, log: () => {}, crontab: "" });
    await worker.stop();
    worker = null;
    const r = await postEvent({ type: "message", text: "hello", user: "UX", channel: "CX" });
    expect(r.status).toBe(200);
    expect(await queuedSyncs()).toBe(0);
  });

  it("team_join enqueues one sync (two events collapse) and the worker imports the new person", async () => {
    const email = `joiner.${team.id}@example.test`;
    fake.users.push({ id: `UJ${team.id}`, name: "joiner", real_name: "Jo Iner", email, tz: "Europe/Berlin" });
    expect((await postEvent({ type: "team_join", user: { id: `UJ${team.id}` } })).status).toBe(200);
    expect((await postEvent({ type: "member_joined_channel", user: `UJ${team.id}`, channel: "CX" })).status).toBe(200);
    expect(await queuedSyncs()).toBe(1);
    worker = await startWorker({ connectionString: process.env.DATABASE_URL as string, log: () => {}, crontab: "" });
    const deadline = Date.now() + 20_000;
    let joined = null;
    while (!joined && Date.now() < deadline) {
      joined = await db.user.findFirst({ where: { team_id: team.id, email } });
      if (!joined) await new Promise((r) => setTimeout(r, 200));
    }
    expect(joined).toMatchObject({ chat_id: `UJ${team.id}`, realname: "Jo Iner", timezone: "Europe/Berlin", role: "member" });
  });
});
