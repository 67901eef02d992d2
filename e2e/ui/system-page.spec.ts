/**
 * Settings → System in Chromium (issue 44): the demo admin sees every section (version and commit,
 * database and migrations, job queue with the worker heartbeat, failed chat and webhook deliveries
 * of the last 24 h, backups and the restore command); a member sees "Team admins only"; Retry puts
 * a failed webhook delivery and a failed chat message back in the delivery queue. The failed rows
 * are written into the running service's embedded database (CHECKIN_DATA_DIR of the e2e runner);
 * the endpoint is a public address literal, so a retried attempt cannot reach anything here.
 */
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { runningDatabaseUrl } from "../../lib/runtime/embedded-postgres";
import { BASE_URL, demoCredentials, demoMemberAccount, signIn, uniqueSuffix } from "./helpers";

const dataDir = process.env.CHECKIN_DATA_DIR ?? path.join(process.cwd(), ".data");

/** Runs `fn` with a client of the service's database. */
async function withDb<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: runningDatabaseUrl(dataDir) ?? "" });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

test("a member sees that the page is for team admins only", async ({ page }) => {
  await signIn(page, demoMemberAccount());
  await page.goto(`${BASE_URL}/settings/system`);
  await expect(page.getByText("Team admins only")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Database" })).toHaveCount(0);
});

test("the admin sees each section and retries failed deliveries", async ({ page }) => {
  const creds = demoCredentials();
  const suffix = uniqueSuffix();
  const url = `https://93.184.215.14/hooks/system-${suffix}`;
  const { deliveryId, messageId } = await withDb(async (c) => {
    const team = (await c.query("SELECT team_id FROM users WHERE email = $1", [creds.dashboard.email])).rows[0].team_id as number;
    const endpoint = (
      await c.query(
        "INSERT INTO webhook_endpoints (team_id, url, events, secret) VALUES ($1, $2, '{report.submitted}', 'whsec_dGVzdA==') RETURNING id",
        [team, url],
      )
    ).rows[0].id as number;
    const delivery = (
      await c.query(
        `INSERT INTO webhook_deliveries (team_id, endpoint_id, message_id, event_type, payload, state, attempts, last_status_code, last_error)
         VALUES ($1, $2, $3, 'report.submitted', '{"type":"report.submitted"}', 'failed', 7, 500, 'HTTP 500') RETURNING id`,
        [team, endpoint, `msg_system_${suffix}`],
      )
    ).rows[0].id as number;
    const message = (
      await c.query(
        `INSERT INTO chat_messages (team_id, ts, kind, text, delivery_state, delivery_error)
         VALUES ($1, $2, 'reminder', 'system page e2e', 'failed', $3) RETURNING id`,
        [team, `${Date.now()}.000042`, `e2e-failure-${suffix}`],
      )
    ).rows[0].id as number;
    return { deliveryId: delivery, messageId: message };
  });

  await signIn(page);
  await page.goto(`${BASE_URL}/settings/system`);
  for (const name of [
    "Version",
    "Database",
    "Failed chat deliveries (last 24 h)",
    "Failed webhook deliveries (last 24 h)",
    "Job queue",
    "Backups",
  ]) {
    await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
  }
  await expect(page.getByTestId("system-version")).toContainText(/Version\s*\d+\.\d+\.\d+/);
  await expect(page.getByTestId("system-version")).toContainText("Web server uptime");
  await expect(page.getByTestId("system-database")).toContainText(/Size\s*[\d.]+ (kB|MB|GB)/);
  await expect(page.getByTestId("system-database")).toContainText(/Pending migrations\s*none/);
  await expect(page.getByTestId("worker-heartbeat")).toContainText("Worker heartbeat:");
  await expect(page.getByTestId("system-backups")).toContainText("Last base backup");
  await expect(page.getByTestId("restore-command")).toContainText('npm run restore -- --at "');

  const webhookRow = page.getByTestId("failed-webhook").filter({ hasText: url });
  await expect(webhookRow).toContainText("HTTP 500");
  await webhookRow.getByRole("button", { name: `Retry webhook delivery ${deliveryId}` }).click();
  await expect(page.getByTestId("failed-webhook").filter({ hasText: url })).toHaveCount(0);
  const delivery = await withDb(async (c) => (await c.query("SELECT state FROM webhook_deliveries WHERE id = $1", [deliveryId])).rows[0]);
  // Requeued: pending again (a first new attempt may have run; it cannot reach the address, so it waits for its retry).
  expect(delivery.state).toBe("pending");

  const chatRow = page.getByTestId("failed-chat").filter({ hasText: `e2e-failure-${suffix}` });
  await expect(chatRow).toHaveCount(1);
  await chatRow.getByRole("button", { name: `Retry chat message ${messageId}` }).click();
  await expect(page.getByTestId("failed-chat").filter({ hasText: `e2e-failure-${suffix}` })).toHaveCount(0);
  const message = await withDb(async (c) => (await c.query("SELECT delivery_error FROM chat_messages WHERE id = $1", [messageId])).rows[0]);
  // Requeued: the retry cleared the failure (the delivery that follows writes its own outcome).
  expect(message.delivery_error).not.toBe(`e2e-failure-${suffix}`);
});
