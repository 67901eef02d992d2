/**
 * Structured request logs (issue 44; README "Health and metrics"): the real API route handlers
 * under the server preload (lib/runtime/next-preload.cjs) in their own Node process, as `npm start`
 * runs them. Every request gets a request id (its own `X-Request-Id` when well-formed, else a new
 * one), echoed in the response, and one JSON line with the route template, method, status,
 * duration and actor id — and never the API key, a password or an answer's text.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, prettyLine } from "@/lib/runtime/logger.cjs";
import { createTestCheckin, type StandardTeams, standardTeams } from "@/tests/fixtures";

const ROOT = path.resolve(import.meta.dirname, "../..");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let child: ChildProcess;
let base = "";
let output = "";
let t: StandardTeams;
let standupId = 0;
let questionId = 0;

type Entry = Record<string, unknown>;

/** The JSON lines the server printed so far (every line must be one). */
function entries(): Entry[] {
  return output
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Entry);
}

/** The request line of `requestId`, waiting briefly for it (it is written when the response is finished). */
async function requestLine(requestId: string): Promise<Entry> {
  for (let i = 0; i < 100; i++) {
    const e = entries().find((x) => x.requestId === requestId);
    if (e) return e;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no log line for ${requestId} in:\n${output}`);
}

beforeAll(async () => {
  t = await standardTeams();
  const standup = await createTestCheckin(t.A, { owner: t.admin, members: [t.admin, t.m0], questions: [{ text: "What did you do?" }] });
  standupId = standup.id;
  questionId = standup.questions[0].id;
  child = spawn(
    process.execPath,
    ["--require", path.join(ROOT, "lib/runtime/next-preload.cjs"), "--import", "tsx", path.join(ROOT, "tests/fakes/logged-server.ts")],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LOG_FORMAT: "json", LOG_LEVEL: "info" } },
  );
  child.stdout?.on("data", (d: Buffer) => {
    output += String(d);
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += String(d);
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (\d+)/.exec(output);
      if (m) {
        clearInterval(timer);
        resolve(Number(m[1]));
      }
    }, 50);
    child.once("exit", (code) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  base = `http://127.0.0.1:${port}`;
}, 60_000);

afterAll(() => {
  child?.kill();
});

describe("request log", () => {
  it("echoes a well-formed X-Request-Id and logs the request under its route template with status, duration and actor", async () => {
    const res = await fetch(`${base}/v2/standups/${standupId}?fields=x`, {
      headers: { authorization: t.admin.key, "x-request-id": "req-test:0001" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("req-test:0001");
    const line = await requestLine("req-test:0001");
    expect(line).toMatchObject({
      level: "info",
      name: "web",
      method: "GET",
      route: "/v2/standups/{standupId}",
      status: 200,
      actorId: t.admin.id,
      msg: expect.stringContaining("GET /v2/standups/{standupId} 200"),
    });
    expect(line.durationMs).toEqual(expect.any(Number));
    expect(line.durationMs as number).toBeGreaterThan(0);
    expect(typeof line.time).toBe("string");
    expect(JSON.stringify(line)).not.toContain("fields=x");
    expect(line).not.toHaveProperty("path");
  });

  it("generates a request id when the client's is missing or malformed", async () => {
    for (const given of [undefined, "has spaces", "x".repeat(129), "a\u00e9b"]) {
      const headers: Record<string, string> = { authorization: t.m0.key };
      if (given) headers["x-request-id"] = given;
      const res = await fetch(`${base}/v2/standups/${standupId}`, { headers });
      const id = res.headers.get("x-request-id") ?? "";
      expect(id, String(given)).toMatch(UUID);
      expect((await requestLine(id)).actorId).toBe(t.m0.id);
    }
  });

  it("logs answered health probes at debug only (not at LOG_LEVEL=info), so orchestrators' polling does not flood the log", async () => {
    const probe = await fetch(`${base}/healthz`, { headers: { "x-request-id": "probe-1" } });
    expect(probe.status).toBe(200);
    const after = await fetch(`${base}/v2/standups/${standupId}`, {
      headers: { authorization: t.m0.key, "x-request-id": "after-probe-1" },
    });
    expect((await requestLine(after.headers.get("x-request-id") ?? "")).status).toBe(200);
    expect(entries().some((e) => e.requestId === "probe-1")).toBe(false);
  });

  it("never logs the API key, a password or an answer's text", async () => {
    const password = "hunter2-correct-horse-battery";
    const answer = "Shipped the secret merger plan for ACME-7731";
    const res = await fetch(`${base}/v2/reports`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${t.admin.key}`,
        "content-type": "application/json",
        cookie: "next-auth.session-token=cookie-secret-abc123",
        "x-request-id": "req-secret-1",
      },
      body: JSON.stringify({ standup_id: standupId, answers: [{ question_id: questionId, text: answer }], password }),
    });
    expect(res.headers.get("x-request-id")).toBe("req-secret-1");
    const line = await requestLine("req-secret-1");
    expect(line).toMatchObject({ method: "POST", route: "/v2/reports", status: res.status, actorId: t.admin.id });
    // An unauthenticated request is logged too, without an actor.
    const anon = await fetch(`${base}/v2/standups/${standupId}`, { headers: { authorization: "api_not-a-real-key-xyz" } });
    expect(anon.status).toBe(401);
    const anonLine = await requestLine(anon.headers.get("x-request-id") ?? "");
    expect(anonLine).toMatchObject({ status: 401, route: "/v2/standups/{standupId}" });
    expect(anonLine).not.toHaveProperty("actorId");
    for (const secret of [t.admin.key, password, answer, "cookie-secret-abc123", "api_not-a-real-key-xyz"]) {
      expect(output).not.toContain(secret);
    }
  });

  it("censors fields named like secrets should code ever log them", () => {
    const lines: string[] = [];
    const log = createLogger({ name: "t", destination: { write: (l: string) => lines.push(l) } });
    log.info(
      {
        password: "pw-1",
        apiKey: "api_k",
        headers: { authorization: "Bearer x", cookie: "c=1", accept: "json" },
        body: { answers: ["a"] },
      },
      "m",
    );
    expect(JSON.parse(lines[0])).toMatchObject({
      password: "[redacted]",
      apiKey: "[redacted]",
      headers: { authorization: "[redacted]", cookie: "[redacted]", accept: "json" },
      body: { answers: "[redacted]" },
    });
  });

  it("formats entries for people with LOG_FORMAT=pretty", () => {
    const line = JSON.stringify({
      level: "info",
      time: "2026-11-28T10:15:00.123Z",
      pid: 1,
      name: "web",
      requestId: "r1",
      method: "GET",
      route: "/v2/reports",
      status: 200,
      durationMs: 3.2,
      msg: "GET /v2/reports 200 3.2 ms",
    });
    expect(prettyLine(line, false)).toBe("10:15:00.123 INFO  web GET /v2/reports 200 3.2 ms requestId=r1\n");
  });
});
