/**
 * Cross-version flows over real HTTP (issue 4: "A standup created through v1 is visible through v2
 * and vice versa; a report submitted through v1 appears in v2 listings and participation"; spec §1
 * and §9: the two endpoint sets may be mixed request by request). Paths are written the way
 * existing clients send them (v1 collections with a trailing slash, raw keys on v1, Bearer on v2).
 * Every flow writes as the demo member, on standups it creates (the demo admin's views, which
 * transport.spec.ts compares, stay unchanged); the channel is discovered through GET /v2/standups.
 */
import { type APIRequestContext, type APIResponse, expect, test } from "@playwright/test";
import { bearerAuth, demoDataBeforeEach, expectApiHeaders, expectNoRedirect, newIdempotencyKey, rawAuth, uniqueSuffix } from "./helpers";

const demo = demoDataBeforeEach();

/** Asserts status (with the body in the message), no redirect and the API headers; returns the JSON body. */
async function ok<T = Record<string, unknown>>(res: APIResponse, status: number, what: string): Promise<T> {
  expectNoRedirect(res, what);
  expect(res.status(), `${what}: ${(await res.text()).slice(0, 300)}`).toBe(status);
  expectApiHeaders(res, what);
  return (await res.json()) as T;
}

type V1Standup = {
  id: number;
  name: string;
  time: string;
  timezone: string;
  days: string[];
  channel: string;
  questions: { id: number; text: string }[];
};
type V2Standup = {
  id: number;
  name: string;
  state: string;
  time: string;
  timezone: string;
  days: string[];
  broadcast_channel: { id: string; name: string };
  members: { id: string }[];
  questions?: { id: number; text: string }[];
};

/** Creates a standup of the demo member (only member) through POST /v2/standups. */
async function createV2Standup(request: APIRequestContext, name: string): Promise<V2Standup> {
  const res = await request.post("/v2/standups", {
    headers: { ...bearerAuth(demo.keys.member.key), "Idempotency-Key": newIdempotencyKey() },
    data: {
      name,
      questions: [{ text: "What did you finish?" }, { text: "What is next?" }],
      days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
      time: "09:00",
      broadcast_channel: demo.ids.channel.id,
      users: [demo.keys.member.user_id],
    },
    maxRedirects: 0,
  });
  return (await ok<{ data: V2Standup }>(res, 201, "POST /v2/standups")).data;
}

/** Creates a standup of the demo member (only member) through POST /v1/standups/. */
async function createV1Standup(request: APIRequestContext, name: string): Promise<V1Standup> {
  const res = await request.post("/v1/standups/", {
    headers: rawAuth(demo.keys.member.key),
    data: {
      name,
      channel: demo.ids.channel.name,
      time: "08:30:00",
      timezone: "Europe/Paris",
      days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
      users: [demo.keys.member.user_id],
      sync_channel_members: false,
      personalised: false,
    },
    maxRedirects: 0,
  });
  return ok<V1Standup>(res, 200, "POST /v1/standups/");
}

test("POST /v1/standups/ → GET /v2/standups/{id}; PATCH and DELETE /v1/standups/{id}/ show through v2", async ({ request }) => {
  const name = `E2E v1 standup ${uniqueSuffix()}`;
  const created = await createV1Standup(request, name);
  expect(created).toMatchObject({ name, time: "08:30:00", timezone: "Europe/Paris", channel: demo.ids.channel.name });
  expect(created.questions.length, "three default questions when `questions` is omitted").toBe(3);

  const v2 = await ok<{ data: V2Standup }>(
    await request.get(`/v2/standups/${created.id}?include=questions`, { headers: bearerAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    `GET /v2/standups/${created.id}`,
  );
  expect(v2.data).toMatchObject({ id: created.id, name, state: "active", time: "08:30:00", timezone: "Europe/Paris", days: created.days });
  expect(v2.data.broadcast_channel).toEqual(demo.ids.channel);
  expect(v2.data.members.map((m) => m.id)).toEqual([demo.keys.member.user_id]);
  expect(v2.data.questions?.map((q) => q.id)).toEqual(created.questions.map((q) => q.id));
  const v2List = await ok<{ data: { id: number }[] }>(
    await request.get("/v2/standups?limit=100", { headers: bearerAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    "GET /v2/standups",
  );
  expect(v2List.data.map((s) => s.id)).toContain(created.id);

  // v1 edit (trailing slash, HHMM time) → v2 sees it.
  const patched = await ok<V1Standup>(
    await request.patch(`/v1/standups/${created.id}/`, {
      headers: rawAuth(demo.keys.member.key),
      data: { name: `${name} renamed`, time: "1015" },
      maxRedirects: 0,
    }),
    200,
    `PATCH /v1/standups/${created.id}/`,
  );
  expect(patched).toMatchObject({ id: created.id, name: `${name} renamed`, time: "10:15:00" });
  const afterPatch = await ok<{ data: V2Standup }>(
    await request.get(`/v2/standups/${created.id}/`, { headers: bearerAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    `GET /v2/standups/${created.id}/`,
  );
  expect(afterPatch.data).toMatchObject({ name: `${name} renamed`, time: "10:15:00" });

  // v1 delete answers the deleted standup; v2 and v1 then answer 404.
  const deleted = await ok<V1Standup>(
    await request.delete(`/v1/standups/${created.id}`, { headers: rawAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    `DELETE /v1/standups/${created.id}`,
  );
  expect(deleted.id).toBe(created.id);
  const gone = await request.get(`/v2/standups/${created.id}`, { headers: bearerAuth(demo.keys.member.key), maxRedirects: 0 });
  expect(gone.status(), `GET /v2/standups/${created.id} after the v1 delete`).toBe(404);
  expect(await gone.json()).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
  const goneV1 = await request.get(`/v1/standups/${created.id}/`, { headers: rawAuth(demo.keys.member.key), maxRedirects: 0 });
  expect(goneV1.status(), `GET /v1/standups/${created.id}/ after the v1 delete`).toBe(404);
  expect(await goneV1.json()).toEqual({ error: expect.any(String) });
});

test("POST /v2/reports (replayed with its Idempotency-Key) → GET /v1/reports/ and GET /v2/reports/{id}/", async ({ request }) => {
  const standup = await createV2Standup(request, `E2E v2 report ${uniqueSuffix()}`);
  const v1Standup = await ok<V1Standup>(
    await request.get(`/v1/standups/${standup.id}/`, { headers: rawAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    `GET /v1/standups/${standup.id}/ (created through v2)`,
  );
  expect(v1Standup).toMatchObject({ id: standup.id, name: standup.name, channel: demo.ids.channel.name, time: "09:00:00" });
  const [q0, q1] = v1Standup.questions.map((q) => q.id);

  const idempotencyKey = newIdempotencyKey();
  const body = {
    standup_id: standup.id,
    answers: [
      { question_id: q0, text: "Shipped the HTTP transport specs" },
      { question_id: q1, text: "Cross-version flows" },
    ],
  };
  const post = () =>
    request.post("/v2/reports", {
      headers: { ...bearerAuth(demo.keys.member.key), "Idempotency-Key": idempotencyKey },
      data: body,
      maxRedirects: 0,
    });
  const first = await post();
  const created = await ok<{ data: { id: number; standup_id: number; user_id: string } }>(first, 200, "POST /v2/reports");
  expect(first.headers()["idempotent-replayed"]).not.toBe("true");
  expect(created.data).toMatchObject({ standup_id: standup.id, user_id: demo.keys.member.user_id });
  const replay = await post();
  expect(await ok(replay, 200, "POST /v2/reports (replayed)"), "the replay answers the same body").toEqual(created);
  expect(replay.headers()["idempotent-replayed"], "POST /v2/reports replay: Idempotent-Replayed").toBe("true");

  const v1List = await ok<
    {
      id: number;
      standup_id: number;
      member?: { id: string };
      slack_ts: string | null;
      questions: { question_id: number; answer: string }[];
    }[]
  >(
    await request.get(`/v1/reports/?standup_id=${standup.id}`, { headers: rawAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    `GET /v1/reports/?standup_id=${standup.id}`,
  );
  expect(
    v1List.map((r) => r.id),
    "the v2 report, once (the replay created nothing)",
  ).toEqual([created.data.id]);
  expect(v1List[0].standup_id).toBe(standup.id);
  expect(v1List[0].member?.id).toBe(demo.keys.member.user_id);
  expect(v1List[0].questions.map((q) => [q.question_id, q.answer])).toEqual([
    [q0, "Shipped the HTTP transport specs"],
    [q1, "Cross-version flows"],
  ]);

  const v2One = await ok<{ data: { id: number } }>(
    await request.get(`/v2/reports/${created.data.id}/`, { headers: bearerAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    `GET /v2/reports/${created.data.id}/`,
  );
  expect(v2One.data.id).toBe(created.data.id);
});

test("POST /v1/reports/ → GET /v2/reports, GET /v2/reports/{id} and GET /v2/standups/{id}/participation", async ({ request }) => {
  const standup = await createV1Standup(request, `E2E v1 report ${uniqueSuffix()}`);
  const answers = Object.fromEntries(standup.questions.map((q, i) => [String(q.id), { text: `v1 answer ${i + 1}` }]));
  const submitted = await ok<{ id: number; done_at: number; channel: unknown; member: { id: string; role: string } }>(
    await request.post("/v1/reports/", {
      headers: rawAuth(demo.keys.member.key),
      data: { standup_id: String(standup.id), answers },
      maxRedirects: 0,
    }),
    200,
    "POST /v1/reports/",
  );
  expect(submitted.member).toMatchObject({ id: demo.keys.member.user_id, role: expect.any(String) });
  expect(submitted.done_at).toBeGreaterThan(0);
  expect(submitted).toHaveProperty("channel");

  const v2List = await ok<{
    data: { id: number; standup_id: number; user_id: string; answers: { question_id: number; answer: string }[] }[];
  }>(
    await request.get(`/v2/reports?standup_id=${standup.id}`, { headers: bearerAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    `GET /v2/reports?standup_id=${standup.id}`,
  );
  expect(v2List.data.map((r) => r.id)).toEqual([submitted.id]);
  expect(v2List.data[0]).toMatchObject({ standup_id: standup.id, user_id: demo.keys.member.user_id });
  expect(v2List.data[0].answers.map((a) => a.answer)).toEqual(standup.questions.map((_, i) => `v1 answer ${i + 1}`));

  const one = await ok<{ data: { id: number } }>(
    await request.get(`/v2/reports/${submitted.id}`, { headers: bearerAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    `GET /v2/reports/${submitted.id}`,
  );
  expect(one.data.id).toBe(submitted.id);

  const participation = await ok<{ data: { standup_id: number; responded: number; expected: number }[] }>(
    await request.get(`/v2/standups/${standup.id}/participation/`, { headers: bearerAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    `GET /v2/standups/${standup.id}/participation/`,
  );
  expect(participation.data[0]).toMatchObject({ standup_id: standup.id, responded: 1, expected: 1 });
});

test("POST /v1/polls → GET /v2/polls/{id} and GET /v1/polls/{id}/votes/", async ({ request }) => {
  const name = `E2E v1 poll ${uniqueSuffix()}`;
  const created = await ok<{ id: number; name: string }>(
    await request.post("/v1/polls", {
      headers: rawAuth(demo.keys.member.key),
      data: { name, channel: demo.ids.channel.name, question: "Tea or coffee?", choices: ["Tea", "Coffee"], duration: 30 },
      maxRedirects: 0,
    }),
    200,
    "POST /v1/polls",
  );
  expect(created.name).toBe(name);

  const v2 = await ok<{ data: { id: number; name: string; owner: string; questions: { choices: string[] }[] } }>(
    await request.get(`/v2/polls/${created.id}/?include=questions`, { headers: bearerAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    `GET /v2/polls/${created.id}/`,
  );
  expect(v2.data).toMatchObject({ id: created.id, name, owner: demo.keys.member.user_id });
  expect(v2.data.questions[0].choices).toEqual(["Tea", "Coffee"]);
  const v2List = await ok<{ data: { id: number }[] }>(
    await request.get("/v2/polls?limit=100", { headers: bearerAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    "GET /v2/polls",
  );
  expect(v2List.data.map((p) => p.id)).toContain(created.id);

  await ok(
    await request.get(`/v1/polls/${created.id}/votes/`, { headers: rawAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    `GET /v1/polls/${created.id}/votes/`,
  );
  const v1Polls = await ok<{ id: number }[]>(
    await request.get("/v1/polls/", { headers: rawAuth(demo.keys.member.key), maxRedirects: 0 }),
    200,
    "GET /v1/polls/",
  );
  expect(v1Polls.map((p) => p.id)).toContain(created.id);
});
