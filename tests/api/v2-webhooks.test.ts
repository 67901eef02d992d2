/**
 * /v2/webhooks (issue 9, a v2 extension): admin-only CRUD with the v2 envelope, cursors, errors
 * and Idempotency-Key; the secret shown once; URLs that point inside the network are refused
 * (WEBHOOKS_ALLOW_PRIVATE is not set in this file).
 */
import { describe, expect, it } from "vitest";
import { GET as deliveriesRoute } from "@/app/v2/webhooks/[webhookId]/deliveries/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "@/app/v2/webhooks/[webhookId]/route";
import { POST as testRoute } from "@/app/v2/webhooks/[webhookId]/test/route";
import { POST as createRoute, GET as listRoute } from "@/app/v2/webhooks/route";
import { db } from "@/lib/db";
import { createTestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";

// Never a public address: a worker on this database must not send anything off the machine. The
// discard port of the loopback is allowed by WEBHOOKS_ALLOW_PRIVATE (set here, read at call time)
// and refuses connections; the refusal tests switch the setting off.
const PUBLIC_URL = "http://127.0.0.1:9/hooks";
process.env.WEBHOOKS_ALLOW_PRIVATE = "true";

describe("/v2/webhooks", () => {
  it("creates (201, secret once), reads, lists with cursors, changes and deletes", async () => {
    const team = await createTestTeam({ members: 1 });
    const key = team.admin.key;
    const created = await call(createRoute, {
      method: "POST",
      path: "/v2/webhooks",
      key,
      body: { url: PUBLIC_URL, events: ["report.submitted", "poll.created"], description: "CI" },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      url: PUBLIC_URL,
      events: ["report.submitted", "poll.created"],
      description: "CI",
      enabled: true,
    });
    expect(created.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const id = String(created.body.data.id);

    const got = await call(getRoute, { path: `/v2/webhooks/${id}`, key, params: { webhookId: id } });
    expect(got.status).toBe(200);
    expect(got.body.data.secret).toBeUndefined();
    expect(got.body.data.id).toBe(Number(id));

    for (let i = 0; i < 2; i++)
      await call(createRoute, { method: "POST", path: "/v2/webhooks", key, body: { url: PUBLIC_URL, events: ["report.deleted"] } });
    const page1 = await call(listRoute, { path: "/v2/webhooks?limit=2", key });
    expect(page1.status).toBe(200);
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.has_more).toBe(true);
    const page2 = await call(listRoute, { path: `/v2/webhooks?limit=2&cursor=${encodeURIComponent(page1.body.next_cursor)}`, key });
    expect(page2.body.data.map((w: { id: number }) => w.id)).toEqual([Number(id)]);
    expect(page2.body).toMatchObject({ has_more: false, next_cursor: null });

    const patched = await call(patchRoute, {
      method: "PATCH",
      path: `/v2/webhooks/${id}`,
      key,
      params: { webhookId: id },
      body: { events: ["report.updated"], enabled: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ events: ["report.updated"], enabled: false, disabled_reason: "disabled by an admin" });
    const enabled = await call(patchRoute, {
      method: "PATCH",
      path: `/v2/webhooks/${id}`,
      key,
      params: { webhookId: id },
      body: { enabled: true },
    });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null });

    const tested = await call(testRoute, { method: "POST", path: `/v2/webhooks/${id}/test`, key, params: { webhookId: id } });
    expect(tested.status).toBe(202);
    const log = await call(deliveriesRoute, { path: `/v2/webhooks/${id}/deliveries`, key, params: { webhookId: id } });
    expect(log.body.data[0]).toMatchObject({ event_type: "webhook.test", state: "pending", message_id: tested.body.data.message_id });

    const deleted = await call(deleteRoute, { method: "DELETE", path: `/v2/webhooks/${id}`, key, params: { webhookId: id } });
    expect(deleted).toMatchObject({ status: 200, body: { success: true } });
    expect((await call(getRoute, { path: `/v2/webhooks/${id}`, key, params: { webhookId: id } })).status).toBe(404);
  });

  it("answers 400 for bad bodies and refused URLs, 404 to non-admins and other teams", async () => {
    process.env.WEBHOOKS_ALLOW_PRIVATE = "false";
    const team = await createTestTeam({ members: 1 });
    const other = await createTestTeam({ members: 0 });
    const post = (body: unknown, key = team.admin.key) => call(createRoute, { method: "POST", path: "/v2/webhooks", key, body });
    for (const body of [
      { url: PUBLIC_URL },
      { url: PUBLIC_URL, events: [] },
      { url: PUBLIC_URL, events: ["report.exploded"] },
      { url: "ftp://example.com/x", events: ["report.submitted"] },
      { url: "not a url", events: ["report.submitted"] },
      { url: "http://169.254.169.254/latest/meta-data", events: ["report.submitted"] },
      { url: "http://127.0.0.1:8080/hook", events: ["report.submitted"] },
      { url: "http://[::ffff:10.0.0.1]/hook", events: ["report.submitted"] },
      // every other IPv6 form embedding an IPv4 address (issue 40): compatible, NAT64, 6to4, Teredo
      { url: "http://[::127.0.0.1]/hook", events: ["report.submitted"] },
      { url: "http://[64:ff9b::127.0.0.1]/hook", events: ["report.submitted"] },
      { url: "http://[2002:7f00:1::]/hook", events: ["report.submitted"] },
      { url: "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook", events: ["report.submitted"] },
      { url: "https://user:pw@example.com/", events: ["report.submitted"] },
    ]) {
      const r = await post(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
    }
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    expect((await post({ url: PUBLIC_URL, events: ["report.submitted"] }, team.users[1].key)).status).toBe(404);
    expect((await call(listRoute, { path: "/v2/webhooks", key: team.users[1].key })).status).toBe(404);
    const mine = await post({ url: PUBLIC_URL, events: ["report.submitted"] });
    const id = String(mine.body.data.id);
    expect((await call(getRoute, { path: `/v2/webhooks/${id}`, key: other.admin.key, params: { webhookId: id } })).status).toBe(404);
    expect(
      (await call(patchRoute, { method: "PATCH", path: `/v2/webhooks/${id}`, key: team.admin.key, params: { webhookId: id }, body: {} }))
        .status,
    ).toBe(400);
    expect((await call(getRoute, { path: "/v2/webhooks/abc", key: team.admin.key, params: { webhookId: "abc" } })).status).toBe(404);
  });

  it("replays a create with the same Idempotency-Key (one endpoint, same secret)", async () => {
    const team = await createTestTeam({ members: 0 });
    const body = { url: PUBLIC_URL, events: ["report.submitted"] };
    const headers = { "idempotency-key": "b6c1f0e4-5a0b-4c7e-9a51-0f0e3a9c2d11" };
    const a = await call(createRoute, { method: "POST", path: "/v2/webhooks", key: team.admin.key, body, headers });
    const b = await call(createRoute, { method: "POST", path: "/v2/webhooks", key: team.admin.key, body, headers });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body.data.secret).toBe(a.body.data.secret);
    expect(await db.webhookEndpoint.count({ where: { team_id: team.id } })).toBe(1);
  });
});
