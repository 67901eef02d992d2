/**
 * Issue 40 item 4 end to end: password-reset e-mails link to PUBLIC_URL whatever the request says.
 * This spec starts its own service like `npm start` (demo data, embedded PostgreSQL in a throwaway
 * folder, the production build the e2e runner made) with SMTP_URL pointing at a local SMTP sink
 * (tests/fakes/smtp.ts) and PUBLIC_URL set (required with SMTP_URL), then calls the "forgot
 * password" server action as its form does, with forged `Host` + `Origin`, `X-Forwarded-Host`
 * (+ `Origin`; proxy.ts now refuses it without TRUST_PROXY), and `Host` without `Origin`
 * (refused). On bc3e8e5, with PUBLIC_URL unset (then the default), the forged requests it let
 * through e-mailed `http://evil.example/reset-password/<token>`; now every e-mail links to
 * PUBLIC_URL, and a service with SMTP_URL but no PUBLIC_URL does not start
 * (tests/public-url.test.ts).
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { runningDatabaseUrl } from "../../lib/runtime/embedded-postgres";
import { type SmtpSink, startSmtpSink } from "../../tests/fakes/smtp";
import { ownService } from "./helpers";

const PUBLIC_URL = "https://checkin.example.test";
let sink: SmtpSink | null = null;
const service = ownService({
  name: "reset-links",
  env: () => ({ SMTP_URL: (sink as SmtpSink).url, PUBLIC_URL, LINK_REQUESTS_PER_HOUR: "50" }),
  unset: ["DATABASE_URL", "CHECKIN_DEMO", "TRUST_PROXY", "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN"],
  readyMs: 220_000,
  before: async () => {
    sink = await startSmtpSink();
  },
  after: async () => {
    await sink?.close();
  },
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
async function submitForgotPassword(email: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const form = new FormData();
  // React's encodeReply of (previousState, formData): the form's fields first, then the root.
  form.append("_1_email", email);
  form.append("0", JSON.stringify([{}, "$K1"]));
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(service.base);
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
        let text = "";
        res.on("data", (c: Buffer) => {
          text += c.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

test("reset e-mails link to PUBLIC_URL whatever Host, Origin or X-Forwarded-Host say", async () => {
  const creds = JSON.parse(fs.readFileSync(path.join(service.dataDir, "demo-credentials.json"), "utf8")) as {
    dashboard: { email: string };
  };
  const email = creds.dashboard.email;
  const own = new URL(service.base);
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
  for (const [name, headers] of variants) {
    const answer = await submitForgotPassword(email, headers);
    statuses[name] = answer.status;
    if (answer.status === 200) expect(answer.body, name).toContain("a link to reset the password is on its way");
  }
  // The plain request and the forged Host + Origin pass the same-origin checks (Next's and
  // proxy.ts') and send an e-mail; proxy.ts refuses the forged X-Forwarded-Host (no TRUST_PROXY)
  // and a server action without Origin (403).
  expect(statuses, JSON.stringify(statuses)).toEqual({
    plain: 200,
    "forged Host + Origin": 200,
    "forged X-Forwarded-Host + Origin": 403,
    "forged Host, no Origin": 403,
  });
  // The reset e-mails: sent to the sink, or still queued behind the demo's summaries on a busy
  // machine (send_email jobs in the job outbox or graphile-worker's queue, read from the database).
  // The database first, then the sink: an e-mail sent in between is counted twice, never missed.
  const texts = async (): Promise<string[]> => {
    const client = new pg.Client({ connectionString: runningDatabaseUrl(service.dataDir) ?? "" });
    await client.connect();
    let queued: string[];
    try {
      const { rows } = await client.query<{ text: string }>(
        `SELECT payload->>'text' AS text FROM job_outbox WHERE task_identifier = 'send_email' AND job_key LIKE 'reset:%'
         UNION ALL SELECT payload->>'text' FROM graphile_worker._private_jobs WHERE key LIKE 'reset:%'`,
      );
      queued = rows.map((r) => r.text);
    } finally {
      await client.end();
    }
    const sent = (sink as SmtpSink).messages.filter((m) => m.to.includes(email) && m.subject.includes("Reset")).map((m) => m.text);
    return [...queued, ...sent];
  };
  await expect.poll(async () => (await texts()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await new Promise((r) => setTimeout(r, 2000)); // anything later of the refused variants
  const mails = await texts();
  // One e-mail per accepted request (the demo admin's address is in one team), none for the
  // refused ones: 2, or up to 4 when some were sent while being read.
  expect(mails.length).toBeLessThanOrEqual(4);
  for (const text of mails) {
    expect(text).not.toContain("evil.example");
    const links = text.match(/https?:\/\/\S+\/reset-password\/\S+/g) ?? [];
    expect(links).toHaveLength(1);
    expect(links[0]?.startsWith(`${PUBLIC_URL}/reset-password/`), links[0]).toBe(true);
  }
});
