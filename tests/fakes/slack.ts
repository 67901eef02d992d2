/**
 * A local fake of the Slack Web API for tests and benchmarks (issue 9 "Tests"): a real HTTP server
 * on 127.0.0.1 that answers `POST /api/<method>` like Slack does (form-encoded or JSON bodies,
 * `Authorization: Bearer <token>`, `{ok: true, ...}` / `{ok: false, error}` bodies, HTTP 429 with
 * `Retry-After` in seconds when a rate limit is injected), keeps a small workspace (users, channels,
 * memberships, messages, opened views) and records every call. Point `@slack/web-api`'s
 * `slackApiUrl` (our `SLACK_API_URL`) at `fake.apiUrl`.
 *
 * Methods served: api.test, auth.test, team.info, chat.postMessage, chat.update, chat.delete,
 * chat.postEphemeral, conversations.open/history/list/members/info, users.list/info/lookupByEmail,
 * views.open/update/publish. Lists page with `cursor` + `limit` and answer
 * `response_metadata.next_cursor` ("" on the last page) as Slack does.
 *
 * Test controls: `failNext(method, fault)` (a 429 with Retry-After, an `{ok:false,error}` answer or
 * a 500), `setDelay(method, ms)` (the call takes effect, then the answer is delayed), `calls`, `callsOf(method)`, `waitFor(predicate)`, `reset()`; the
 * same over HTTP for other processes: `GET /_fake/calls`, `POST /_fake/fail` `{method, ...fault}`,
 * `POST /_fake/delay` `{method, ms}`, `POST /_fake/reset`.
 *
 * Run it alone (benchmarks, manual tries): `npx tsx tests/fakes/slack.ts [--port 4010]`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

export type FakeSlackUser = {
  id: string;
  name: string;
  real_name: string;
  email?: string;
  tz?: string;
  is_admin?: boolean;
  is_bot?: boolean;
  deleted?: boolean;
  title?: string;
  image_72?: string;
};

export type FakeSlackChannel = { id: string; name: string; is_private?: boolean; topic?: string; members: string[]; is_archived?: boolean };

export type FakeSlackMessage = {
  channel: string;
  ts: string;
  text: string;
  blocks?: unknown;
  thread_ts?: string;
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  deleted: boolean;
  edits: number;
};

export type FakeSlackCall = { method: string; args: Record<string, unknown>; at: number; status: number; token: string | null };

/** An injected failure for the next call(s) of a method. */
export type FakeSlackFault = { status?: number; retryAfter?: number; error?: string; times?: number };

export type FakeSlack = {
  /** Base URL for `slackApiUrl`, ending in "/api/". */
  apiUrl: string;
  port: number;
  token: string;
  teamId: string;
  botUserId: string;
  users: FakeSlackUser[];
  channels: FakeSlackChannel[];
  messages: FakeSlackMessage[];
  views: Array<{ trigger_id: string; view: Record<string, unknown>; id: string }>;
  calls: FakeSlackCall[];
  callsOf: (method: string) => FakeSlackCall[];
  /** Live (not deleted) messages of a channel or DM, oldest first. */
  messagesIn: (channel: string) => FakeSlackMessage[];
  /** The DM channel id the fake gives `userId` (conversations.open). */
  dmChannelOf: (userId: string) => string;
  failNext: (method: string, fault: FakeSlackFault) => void;
  setDelay: (method: string, ms: number) => void;
  /** Resolves when `predicate()` holds (polled every 20 ms); rejects after `timeoutMs`. */
  waitFor: (predicate: () => boolean, timeoutMs?: number, what?: string) => Promise<void>;
  reset: () => void;
  close: () => Promise<void>;
};

const DEFAULT_USERS: FakeSlackUser[] = [
  { id: "U0FAKE001", name: "ada", real_name: "Ada Lovelace", email: "ada@example.test", tz: "Europe/London", is_admin: true },
  { id: "U0FAKE002", name: "grace", real_name: "Grace Hopper", email: "grace@example.test", tz: "America/New_York" },
  { id: "U0FAKE003", name: "alan", real_name: "Alan Turing", email: "alan@example.test", tz: "Europe/London" },
  { id: "U0FAKEBOT", name: "checkin", real_name: "Check-in", is_bot: true },
];
const DEFAULT_CHANNELS: FakeSlackChannel[] = [
  { id: "C0FAKEGEN", name: "general", topic: "Company-wide", members: ["U0FAKE001", "U0FAKE002", "U0FAKE003"] },
  { id: "C0FAKEENG", name: "engineering", members: ["U0FAKE001", "U0FAKE003"] },
];

function parseBody(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  if (contentType?.includes("application/json")) return JSON.parse(raw) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    const t = v.trim();
    if ((t.startsWith("{") && t.endsWith("}")) || (t.startsWith("[") && t.endsWith("]"))) {
      try {
        out[k] = JSON.parse(t);
        continue;
      } catch {
        /* plain string */
      }
    }
    out[k] = v;
  }
  return out;
}

function page<T>(items: T[], args: Record<string, unknown>): { items: T[]; next: string } {
  const limit = Math.min(Math.max(Number(args.limit ?? 100) || 100, 1), 1000);
  const start = args.cursor ? Number(Buffer.from(String(args.cursor), "base64").toString().replace("next:", "")) || 0 : 0;
  const slice = items.slice(start, start + limit);
  const next = start + limit < items.length ? Buffer.from(`next:${start + limit}`).toString("base64") : "";
  return { items: slice, next };
}

function userJson(u: FakeSlackUser, teamId: string) {
  return {
    id: u.id,
    team_id: teamId,
    name: u.name,
    real_name: u.real_name,
    deleted: Boolean(u.deleted),
    is_admin: Boolean(u.is_admin),
    is_bot: Boolean(u.is_bot),
    tz: u.tz ?? "UTC",
    profile: {
      real_name: u.real_name,
      display_name: u.name,
      email: u.email,
      title: u.title ?? "",
      image_72: u.image_72 ?? `https://avatars.example.test/${u.id}.png`,
    },
  };
}

function channelJson(c: FakeSlackChannel) {
  return {
    id: c.id,
    name: c.name,
    is_channel: !c.is_private,
    is_private: Boolean(c.is_private),
    is_archived: Boolean(c.is_archived),
    is_member: true,
    num_members: c.members.length,
    topic: { value: c.topic ?? "" },
  };
}

/**
 * Starts the fake on 127.0.0.1 (port 0 = any free port).
 * @param opts.users / opts.channels the workspace (defaults: three people, a bot, #general and #engineering).
 */
export async function startFakeSlack(
  opts: { port?: number; token?: string; users?: FakeSlackUser[]; channels?: FakeSlackChannel[] } = {},
): Promise<FakeSlack> {
  const token = opts.token ?? "xoxb-fake-token";
  const teamId = "T0FAKE";
  const botUserId = "U0FAKEBOT";
  const faults = new Map<string, FakeSlackFault[]>();
  const delays = new Map<string, number>();
  let tsCounter = 0;
  let viewCounter = 0;

  const state = {
    users: structuredClone(opts.users ?? DEFAULT_USERS),
    channels: structuredClone(opts.channels ?? DEFAULT_CHANNELS),
    messages: [] as FakeSlackMessage[],
    views: [] as FakeSlack["views"],
    calls: [] as FakeSlackCall[],
  };

  const dmChannelOf = (userId: string) => `D${userId.slice(1)}`;
  const newTs = () => {
    tsCounter += 1;
    return `${Math.floor(Date.now() / 1000)}.${String(tsCounter).padStart(6, "0")}`;
  };
  const knownChannel = (id: string) =>
    state.channels.some((c) => c.id === id) || (id.startsWith("D") && state.users.some((u) => dmChannelOf(u.id) === id));
  const find = (channel: string, ts: string) => state.messages.find((m) => m.channel === channel && m.ts === ts && !m.deleted);

  /** Answers one Web API method; returns [status, body]. */
  function answer(method: string, a: Record<string, unknown>): [number, Record<string, unknown>] {
    const ok = (body: Record<string, unknown> = {}): [number, Record<string, unknown>] => [200, { ok: true, ...body }];
    const err = (error: string): [number, Record<string, unknown>] => [200, { ok: false, error }];
    switch (method) {
      case "api.test":
        return ok({ args: a });
      case "auth.test":
        return ok({
          url: "https://fake.slack.test/",
          team: "Fake Workspace",
          user: "checkin",
          team_id: teamId,
          user_id: botUserId,
          bot_id: "B0FAKE",
        });
      case "team.info":
        return ok({ team: { id: teamId, name: "Fake Workspace", domain: "fake" } });
      case "chat.postMessage":
      case "chat.postEphemeral": {
        const channel = String(a.channel ?? "");
        if (!channel) return err("channel_not_found");
        if (!knownChannel(channel)) return err("channel_not_found");
        if (!a.text && !a.blocks) return err("no_text");
        const msg: FakeSlackMessage = {
          channel,
          ts: newTs(),
          text: String(a.text ?? ""),
          blocks: a.blocks,
          thread_ts: a.thread_ts ? String(a.thread_ts) : undefined,
          metadata: a.metadata as FakeSlackMessage["metadata"],
          deleted: false,
          edits: 0,
        };
        if (method === "chat.postEphemeral") return ok({ message_ts: msg.ts });
        state.messages.push(msg);
        return ok({ channel, ts: msg.ts, message: { type: "message", text: msg.text, ts: msg.ts, bot_id: "B0FAKE", blocks: msg.blocks } });
      }
      case "chat.update": {
        const msg = find(String(a.channel), String(a.ts));
        if (!msg) return err("message_not_found");
        msg.text = String(a.text ?? msg.text);
        if (a.blocks !== undefined) msg.blocks = a.blocks;
        msg.edits += 1;
        return ok({ channel: msg.channel, ts: msg.ts, text: msg.text });
      }
      case "chat.delete": {
        const msg = find(String(a.channel), String(a.ts));
        if (!msg) return err("message_not_found");
        msg.deleted = true;
        return ok({ channel: msg.channel, ts: msg.ts });
      }
      case "conversations.open": {
        const users = String(a.users ?? "")
          .split(",")
          .filter(Boolean);
        if (users.length !== 1) return err(users.length ? "not_implemented" : "users_list_not_supplied");
        const user = state.users.find((u) => u.id === users[0]);
        if (!user) return err("user_not_found");
        if (user.deleted) return err("user_disabled");
        return ok({ channel: { id: dmChannelOf(user.id) } });
      }
      case "conversations.history": {
        const channel = String(a.channel ?? "");
        if (!knownChannel(channel)) return err("channel_not_found");
        const all = state.messages.filter((m) => m.channel === channel && !m.deleted && !m.thread_ts).reverse();
        const { items, next } = page(all, a);
        const withMeta = a.include_all_metadata === true || a.include_all_metadata === "true";
        return ok({
          messages: items.map((m) => ({
            type: "message",
            ts: m.ts,
            text: m.text,
            ...(withMeta && m.metadata ? { metadata: m.metadata } : {}),
          })),
          has_more: Boolean(next),
          response_metadata: { next_cursor: next },
        });
      }
      case "conversations.list": {
        const types = String(a.types ?? "public_channel").split(",");
        const excludeArchived = a.exclude_archived === true || a.exclude_archived === "true";
        const all = state.channels.filter(
          (c) =>
            (c.is_private ? types.includes("private_channel") : types.includes("public_channel")) && !(excludeArchived && c.is_archived),
        );
        const { items, next } = page(all, a);
        return ok({ channels: items.map(channelJson), response_metadata: { next_cursor: next } });
      }
      case "conversations.info": {
        const c = state.channels.find((x) => x.id === a.channel);
        return c ? ok({ channel: channelJson(c) }) : err("channel_not_found");
      }
      case "conversations.members": {
        const c = state.channels.find((x) => x.id === a.channel);
        if (!c) return err("channel_not_found");
        const { items, next } = page(c.members, a);
        return ok({ members: items, response_metadata: { next_cursor: next } });
      }
      case "users.list": {
        const { items, next } = page(state.users, a);
        return ok({ members: items.map((u) => userJson(u, teamId)), response_metadata: { next_cursor: next } });
      }
      case "users.info": {
        const u = state.users.find((x) => x.id === a.user);
        return u ? ok({ user: userJson(u, teamId) }) : err("user_not_found");
      }
      case "users.lookupByEmail": {
        const u = state.users.find((x) => x.email && x.email.toLowerCase() === String(a.email ?? "").toLowerCase());
        return u ? ok({ user: userJson(u, teamId) }) : err("users_not_found");
      }
      case "views.open":
      case "views.update":
      case "views.publish": {
        if (method === "views.open" && !a.trigger_id) return err("invalid_arguments");
        const view = a.view as Record<string, unknown> | undefined;
        if (!view || typeof view !== "object") return err("invalid_arguments");
        viewCounter += 1;
        const id = method === "views.update" && a.view_id ? String(a.view_id) : `V0FAKE${viewCounter}`;
        state.views.push({ trigger_id: String(a.trigger_id ?? ""), view, id });
        return ok({ view: { id, ...view } });
      }
      default:
        return err("unknown_method");
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
        res.end(JSON.stringify(body));
      };
      if (url.pathname.startsWith("/_fake/")) return control(url.pathname.slice(7), raw, send);
      if (!url.pathname.startsWith("/api/") || req.method !== "POST") return send(404, { ok: false, error: "unknown_method" });
      const method = url.pathname.slice(5);
      let args: Record<string, unknown>;
      try {
        args = parseBody(raw, req.headers["content-type"]);
      } catch {
        return send(200, { ok: false, error: "invalid_json" });
      }
      const auth = req.headers.authorization ?? "";
      const given = auth.startsWith("Bearer ") ? auth.slice(7) : typeof args.token === "string" ? args.token : null;
      const call: FakeSlackCall = { method, args, at: Date.now(), status: 200, token: given };
      state.calls.push(call);
      const queue = faults.get(method);
      const fault = queue?.[0];
      if (fault) {
        fault.times = (fault.times ?? 1) - 1;
        if (fault.times <= 0) queue.shift();
        call.status = fault.status ?? (fault.retryAfter !== undefined ? 429 : 200);
        if (call.status === 429) return send(429, { ok: false, error: "ratelimited" }, { "retry-after": String(fault.retryAfter ?? 1) });
        return send(call.status, { ok: false, error: fault.error ?? "internal_error" });
      }
      if (method !== "api.test" && given !== token) return send(200, { ok: false, error: given ? "invalid_auth" : "not_authed" });
      const [status, body] = answer(method, args);
      call.status = status;
      // A delay is applied after the call took effect: the client sees a slow answer to a call
      // Slack already carried out (what a crash between sending and recording looks like).
      const delay = delays.get(method);
      if (delay) await new Promise((r) => setTimeout(r, delay));
      if (!res.destroyed) send(status, body);
    });
  });

  function control(what: string, raw: string, send: (s: number, b: unknown) => void) {
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    if (what === "calls") return send(200, { calls: state.calls, messages: state.messages, views: state.views });
    if (what === "reset") {
      fake.reset();
      return send(200, { ok: true });
    }
    if (what === "fail") {
      fake.failNext(String(body.method), body as FakeSlackFault);
      return send(200, { ok: true });
    }
    if (what === "delay") {
      fake.setDelay(String(body.method), Number(body.ms ?? 0));
      return send(200, { ok: true });
    }
    send(404, { ok: false });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  server.keepAliveTimeout = 1000;
  const port = (server.address() as AddressInfo).port;

  const fake: FakeSlack = {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    port,
    token,
    teamId,
    botUserId,
    get users() {
      return state.users;
    },
    get channels() {
      return state.channels;
    },
    get messages() {
      return state.messages;
    },
    get views() {
      return state.views;
    },
    get calls() {
      return state.calls;
    },
    callsOf: (method) => state.calls.filter((c) => c.method === method),
    messagesIn: (channel) => state.messages.filter((m) => m.channel === channel && !m.deleted),
    dmChannelOf,
    failNext: (method, fault) => {
      const list = faults.get(method) ?? [];
      list.push({ ...fault });
      faults.set(method, list);
    },
    setDelay: (method, ms) => {
      if (ms > 0) delays.set(method, ms);
      else delays.delete(method);
    },
    waitFor: async (predicate, timeoutMs = 15_000, what = "condition") => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`fake Slack: timed out after ${timeoutMs} ms waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    reset: () => {
      state.messages.length = 0;
      state.calls.length = 0;
      state.views.length = 0;
      faults.clear();
      delays.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--port");
  const port = i > 0 ? Number(process.argv[i + 1]) : 4010;
  startFakeSlack({ port }).then((f) => {
    console.log(`Fake Slack Web API on ${f.apiUrl} (token ${f.token}); Ctrl-C stops it.`);
    const stop = () => f.close().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
