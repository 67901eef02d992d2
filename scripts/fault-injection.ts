/**
 * `npm run fault-injection [-- --short] [-- --data-dir DIR]`: crash and connection-loss drill of
 * issue 13 against the real production server (`npm start`, embedded PostgreSQL).
 *
 * 1. starts the service (scripts/start.ts) on a free port, on DIR (already seeded: reused) or a
 *    fresh throwaway data folder (seeded on the first start);
 * 2. runs a write load: W workers each create standups (POST /v2/standups) named
 *    `fi-<run>-<n>`, every write with its own Idempotency-Key, retried with the SAME key on
 *    network errors, 409, 429 and 5xx until a 2xx (acknowledged) or a 4xx;
 * 3. meanwhile, injects faults: kills every client connection of the app with
 *    `pg_terminate_backend` (T rounds), then SIGKILLs the launcher and the service process (what
 *    a crash or the OOM killer does; Next.js and PostgreSQL are left orphaned) and runs `npm start`
 *    again at once, K times in a row, timing each restart until it answers HTTP and until the
 *    first acknowledged write;
 * 4. stops the load, stops the server, and counts in PostgreSQL: acknowledged writes whose row is
 *    missing (lost), rows present more than once per name (duplicates), 500s seen.
 * Prints the figures and exits 1 when anything was lost or duplicated, a 500 was seen, or a
 * restart took longer than `--restart-limit` seconds (default 10). `--short` (used by `npm test`
 * through scripts/e2e.ts, with a 30 s limit because CI machines are shared): 3 workers, 2
 * termination rounds, 3 SIGKILL restarts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type LaunchedService, launchService, servicePid, waitForServer } from "@/lib/runtime/launch";
import { freePort, stopProcess } from "@/lib/runtime/processes";

const args = process.argv.slice(2);
/** Seconds a restart may take (`--restart-limit S`, default 10 as issue 13 asks). */
const RESTART_LIMIT_S = args.includes("--restart-limit") ? Number(args[args.indexOf("--restart-limit") + 1]) : 10;
const short = args.includes("--short");
const givenDir = args.includes("--data-dir") ? args[args.indexOf("--data-dir") + 1] : null;
const WORKERS = short ? 3 : 8;
const TERMINATION_ROUNDS = short ? 2 : 6;
const KILLS = 3;
const root = process.cwd();
const log = (line: string) => console.log(`[fault] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Stats = {
  attempts: number;
  acknowledged: Map<string, number>;
  statuses: Map<string, number>;
  failed4xx: number;
  firstAckAfter: number | null;
};

function databaseUrl(dir: string): string {
  const lock = JSON.parse(fs.readFileSync(path.join(dir, "server.lock"), "utf8")) as { port: number };
  const password = fs.readFileSync(path.join(dir, "postgres-password"), "utf8").trim();
  return `postgresql://checkin:${encodeURIComponent(password)}@127.0.0.1:${lock.port}/postgres`;
}

async function query<T extends pg.QueryResultRow>(dir: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl(dir) });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  const dataDir = givenDir ? path.resolve(givenDir) : fs.mkdtempSync(path.join(os.tmpdir(), "checkin-fault-"));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), CHECKIN_DATA_DIR: dataDir };
  const run = Date.now().toString(36);
  log(`server on ${base}, data in ${dataDir}${short ? " (short form)" : ""}`);

  let service: LaunchedService = launchService({ root, env });
  const started = Date.now();
  await waitForServer(`${base}/`, service.child, 240_000);
  log(`ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8")) as {
    api_keys: { admin: { key: string; team_id: number } };
  };
  const adminKey = creds.api_keys.admin.key;
  const [channel] = await query<{ chat_id: string }>(dataDir, "SELECT chat_id FROM channels WHERE team_id = $1 ORDER BY id LIMIT 1", [
    creds.api_keys.admin.team_id,
  ]);

  const stats: Stats = { attempts: 0, acknowledged: new Map(), statuses: new Map(), failed4xx: 0, firstAckAfter: null };
  let stopLoad = false;
  let seq = 0;
  let watchFrom: number | null = null;

  /** One write, retried with the same key until acknowledged or refused. */
  async function write(): Promise<void> {
    const name = `fi-${run}-${seq++}`;
    const key = crypto.randomUUID();
    const body = JSON.stringify({ name, questions: [{ text: "Done?" }], days: ["Mon"], time: "09:00", broadcast_channel: channel.chat_id });
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      stats.attempts++;
      let status: string;
      try {
        const res = await fetch(`${base}/v2/standups`, {
          method: "POST",
          headers: { Authorization: adminKey, "Content-Type": "application/json", "Idempotency-Key": key },
          body,
          signal: AbortSignal.timeout(15_000),
        });
        status = String(res.status);
        const json = (await res.json().catch(() => null)) as { data?: { id?: number } } | null;
        if (res.ok) {
          stats.acknowledged.set(name, json?.data?.id ?? -1);
          if (watchFrom !== null && stats.firstAckAfter === null) stats.firstAckAfter = Date.now() - watchFrom;
          bump(stats.statuses, status);
          return;
        }
        if (res.status >= 400 && res.status < 500 && ![409, 429].includes(res.status)) {
          stats.failed4xx++;
          bump(stats.statuses, status);
          return;
        }
      } catch {
        status = "network error";
      }
      bump(stats.statuses, status);
      await sleep(200);
    }
  }

  const workers = Array.from({ length: WORKERS }, async () => {
    while (!stopLoad) await write();
  });

  // Faults 1: connections terminated under load.
  let terminated = 0;
  for (let i = 0; i < TERMINATION_ROUNDS; i++) {
    await sleep(1500);
    const rows = await query<{ n: string }>(
      dataDir,
      `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
    );
    terminated += Number(rows[0].n);
  }
  log(`terminated ${terminated} database connection(s) in ${TERMINATION_ROUNDS} rounds under load`);

  // Faults 2: SIGKILL of the launcher and the service, then `npm start` again, K times in a row.
  const restarts: Array<{ ready: number; firstWrite: number | null }> = [];
  let killedPid: number | null = null;
  for (let k = 0; k < KILLS; k++) {
    await sleep(1500);
    // Kill the service that is really up: wait until the new service has taken the lock.
    for (let i = 0; i < 300 && (servicePid(dataDir) === killedPid || servicePid(dataDir) === null); i++) await sleep(100);
    const pid = servicePid(dataDir);
    killedPid = pid;
    service.child.kill("SIGKILL");
    if (pid) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    const killedAt = Date.now();
    stats.firstAckAfter = null;
    watchFrom = killedAt;
    // The orphaned web server exits within ~1 s of its parent (preload): wait until it stops
    // answering, so "serving again" is the new server.
    for (let i = 0; i < 50; i++) {
      const up = await fetch(`${base}/`, { redirect: "manual", signal: AbortSignal.timeout(500) }).then(
        () => true,
        () => false,
      );
      if (!up) break;
      await sleep(100);
    }
    service = launchService({ root, env });
    try {
      await waitForServer(`${base}/`, service.child, 60_000, 100);
    } catch (err) {
      log(`restart ${k + 1} failed: ${(err as Error).message}\n${service.output().split("\n").slice(-30).join("\n")}`);
      restarts.push({ ready: Number.POSITIVE_INFINITY, firstWrite: null });
      break;
    }
    const ready = (Date.now() - killedAt) / 1000;
    while (stats.firstAckAfter === null && Date.now() - killedAt < 30_000) await sleep(50);
    const firstWrite = stats.firstAckAfter === null ? null : (stats.firstAckAfter as number) / 1000;
    restarts.push({ ready, firstWrite });
    log(`SIGKILL ${k + 1}: serving again after ${ready.toFixed(1)} s, first acknowledged write after ${firstWrite?.toFixed(1) ?? "—"} s`);
  }

  await sleep(1000);
  stopLoad = true;
  await Promise.all(workers);

  const rows = await query<{ name: string; n: string }>(
    dataDir,
    "SELECT name, count(*) AS n FROM checkins WHERE name LIKE $1 GROUP BY name",
    [`fi-${run}-%`],
  );
  const stored = new Map(rows.map((r) => [r.name, Number(r.n)]));
  const lost = [...stats.acknowledged.keys()].filter((n) => !stored.has(n));
  const duplicates = [...stored.entries()].filter(([, n]) => n > 1);
  const unacknowledgedStored = [...stored.keys()].filter((n) => !stats.acknowledged.has(n)).length;
  await stopProcess(service.child);
  if (!givenDir) fs.rmSync(dataDir, { recursive: true, force: true });

  const statusLine = [...stats.statuses.entries()]
    .sort()
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ");
  const worstReady = Math.max(...restarts.map((r) => r.ready));
  const fiveHundreds = stats.statuses.get("500") ?? 0;
  console.log("");
  console.log("fault injection results");
  console.log(`  writes acknowledged:        ${stats.acknowledged.size} (attempts ${stats.attempts}; refused 4xx ${stats.failed4xx})`);
  console.log(`  lost acknowledged writes:   ${lost.length}${lost.length ? ` (${lost.slice(0, 5).join(", ")})` : ""}`);
  console.log(`  duplicate writes:           ${duplicates.length}`);
  console.log(`  stored, never acknowledged: ${unacknowledgedStored} (in flight when the load stopped)`);
  console.log(`  connections terminated:     ${terminated}`);
  console.log(
    `  restarts after SIGKILL:     ${restarts.map((r) => `${r.ready.toFixed(1)} s`).join(", ")} (limit ${RESTART_LIMIT_S} s); first write after ${restarts
      .map((r) => (r.firstWrite === null ? "—" : `${r.firstWrite.toFixed(1)} s`))
      .join(", ")}`,
  );
  console.log(`  responses by status:        ${statusLine}`);
  const ok =
    lost.length === 0 && duplicates.length === 0 && fiveHundreds === 0 && restarts.length === KILLS && worstReady <= RESTART_LIMIT_S;
  console.log(ok ? "fault injection: PASS" : "fault injection: FAIL");
  return ok ? 0 : 1;
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`[fault] ${(err as Error)?.stack ?? err}`);
    process.exit(1);
  },
);
