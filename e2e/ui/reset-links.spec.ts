/**
 * Issue 40 item 4 end to end: password-reset e-mails link to PUBLIC_URL whatever the request says.
 * This spec starts its own service like `npm start` (demo data, embedded PostgreSQL in a throwaway
 * folder, the production build the e2e runner made) with SMTP_URL pointing at a local SMTP sink
 * (tests/fakes/smtp.ts) and PUBLIC_URL set (required with SMTP_URL), then calls the "forgot
 * password" server action as its form does, with forged `Host` + `Origin`, `X-Forwarded-Host`
 * (+ `Origin`; our proxy refuses it without TRUST_PROXY), and `Host` without `Origin`. On
 * bc3e8e5, with PUBLIC_URL unset (then the default), three of these e-mailed
 * `http://evil.example/reset-password/<token>`; now every e-mail links to PUBLIC_URL, and a
 * service with SMTP_URL but no PUBLIC_URL does not start (tests/public-url.test.ts).
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { stopProcess } from "../../lib/runtime/processes";
import { type SmtpSink, startSmtpSink } from "../../tests/fakes/smtp";
import { spawnService } from "./helpers";

const PUBLIC_URL = "https://checkin.example.test";
let server: ChildProcess | null = null;
let sink: SmtpSink | null = null;
let dataDir = "";
let base = "";
const output: string[] = [];

test.describe.configure({ mode: "serial", timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  sink = await startSmtpSink();
  const service = await spawnService({
    tmpPrefix: "checkin-reset-links-",
    env: { SMTP_URL: sink.url, PUBLIC_URL, LINK_REQUESTS_PER_HOUR: "50" },
    unset: ["DATABASE_URL", "CHECKIN_DEMO", "TRUST_PROXY", "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN"],
    output,
  });
  ({ server, dataDir, base } = service);
  await service.ready("the SMTP service", 220_000);
});

test.afterAll(async () => {
  if (server) await stopProcess(server, 60_000);
  await sink?.close();
  if (output.length) fs.writeFileSync(path.join("test-results", "reset-links-server.log"), output.join(""));
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The id of `forgotPasswordAction` in the production build the service runs (the e2e runner's),
 * from Next's server-reference manifest.
 */
function forgotPasswordActionId(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName?: string; filename?: string }>;
  };
  const id = Object.entries(manifest.node).find(([, v]) => v.exportedName === "forgotPasswordAction")?.[0];
  if (!id) throw new Error("forgotPasswordAction is not in .next/server/server-reference-manifest.json");
  return id;
}

/**
 * Calls the "forgot password" server action the way the page's form does (`Next-Action` header,
 * React's reply encoding of `(previousState, formData)`), with `headers` (Host included) over a raw
 * connection. Resolves with the status.
 */
async function submitForgotPassword(email: string, headers: Record<string, string>): Promise<number> {
  const form = new FormData();
  form.append("0", JSON.stringify([{}, "$K1"]));
  form.append("1_email", email);
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/forgot-password",
        headers: {
          Host: url.host,
          "Next-Action": forgotPasswordActionId(),
          "Content-Type": encoded.headers.get("content-type") ?? "",
          "Content-Length": String(body.length),
          Accept: "text/x-component",
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

test("reset e-mails link to PUBLIC_URL whatever Host, Origin or X-Forwarded-Host say", async () => {
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8")) as {
    dashboard: { email: string };
  };
  const email = creds.dashboard.email;
  const own = new URL(base);
  const variants: Array<[string, Record<string, string>]> = [
    ["plain", { Origin: own.origin }],
    ["forged Host + Origin", { Host: "evil.example", Origin: "http://evil.example" }],
    [
      "forged X-Forwarded-Host + Origin",
      { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http", Origin: "http://evil.example" },
    ],
    ["forged Host, no Origin", { Host: "evil.example" }],
  ];
  const statuses: Record<string, number> = {};
  for (const [name, headers] of variants) statuses[name] = await submitForgotPassword(email, headers);
  // The plain request, the forged Host + Origin and the forged Host alone pass the same-origin
  // checks (Next's and proxy.ts') and send an e-mail.
  expect(statuses.plain, JSON.stringify(statuses)).toBeLessThan(400);
  expect(statuses["forged Host + Origin"], JSON.stringify(statuses)).toBeLessThan(400);
  expect(statuses["forged Host, no Origin"], JSON.stringify(statuses)).toBeLessThan(400);
  const sent = sink as SmtpSink;
  await sent.waitFor((m) => m.filter((x) => x.to.includes(email)).length >= 3, 60_000);
  await new Promise((r) => setTimeout(r, 3000)); // any later e-mail of the other variants
  const mails = sent.messages.filter((m) => m.to.includes(email));
  expect(mails.length).toBeGreaterThanOrEqual(3);
  for (const mail of mails) {
    expect(mail.text).not.toContain("evil.example");
    const links = mail.text.match(/https?:\/\/\S+\/reset-password\/\S+/g) ?? [];
    expect(links).toHaveLength(1);
    expect(links[0]?.startsWith(`${PUBLIC_URL}/reset-password/`), links[0]).toBe(true);
  }
});
