/**
 * `npm run test:multi-instance`: several instances on one database (issue 14), with real processes.
 *
 * Starts a throwaway embedded PostgreSQL, PgBouncer in transaction mode in front of it when the
 * `pgbouncer` binary is installed (Debian: `apt-get install -y pgbouncer`), one worker
 * (`npm start -- --worker-only`, direct connection: migrations, demo seed, job worker) and two web
 * instances (`npm start -- --web-only`, DATABASE_URL through PgBouncer, DIRECT_DATABASE_URL
 * direct, no AUTH_SECRET: the secret comes from the database). Then checks, printing each result:
 *  1. one Idempotency-Key sent to both web instances at once → the write happens exactly once;
 *  2. a cursor made by instance A is accepted by instance B (the next page follows on);
 *  3. a dashboard session signed in on A is valid on B;
 *  4. a key revoked in the database is refused by both (after both have it cached) within 1 s;
 *  5. concurrent scheduler runs (schedule_tick jobs) create each occurrence once;
 *  6. reports submitted on both instances at once: each broadcast's delivery job goes through the
 *     job outbox to the worker once (outbox empty, one delivery attempt per message), all delivered.
 * Needs the production build (`npm run build`, or any `npm start`). Ends with "N passed, N failed";
 * exit code 1 when a check fails or the set-up fails.
 */

import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { ensureBuild, ensurePrismaClient } from "@/lib/runtime/build";
import { startEmbeddedPostgres } from "@/lib/runtime/embedded-postgres";
import { freePort, stopProcess, waitForHttp } from "@/lib/runtime/processes";
import { signInWithPassword } from "@/scripts/lib/dashboard-session";
import { makeTempDir } from "@/scripts/throwaway";

const root = process.cwd();
const log = (l: string) => console.log(`[multi] ${l}`);
const results: Array<{ name: string; ok: boolean; detail: string }> = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function check(name: string, ok: boolean, detail: string): void {
  results.push({ name, ok, detail });
  log(`${ok ? "PASS" : "FAIL"} ${name}: ${detail}`);
}

function which(bin: string): string | null {
  for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/bin"]) {
    const p = path.join(dir, bin);
    if (dir && fs.existsSync(p)) return p;
  }
  return null;
}

/** Starts PgBouncer (transaction pooling) in front of `direct`; returns its URL and process. */
async function startPgBouncer(bin: string, direct: string, dir: string): Promise<{ url: string; child: ChildProcess }> {
  const u = new URL(direct);
  const port = await freePort();
  const db = u.pathname.slice(1);
  const ini = path.join(dir, "pgbouncer.ini");
  fs.writeFileSync(
    ini,
    [
      "[databases]",
      `${db} = host=127.0.0.1 port=${u.port} dbname=${db} user=${decodeURIComponent(u.username)} password=${decodeURIComponent(u.password)}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "auth_type = any",
      "pool_mode = transaction",
      "max_client_conn = 200",
      "default_pool_size = 20",
      "unix_socket_dir =",
      "ignore_startup_parameters = extra_float_digits,options,application_name",
      "",
    ].join("\n"),
  );
  fs.chmodSync(dir, 0o755);
  fs.chmodSync(ini, 0o644);
  // PgBouncer refuses to run as root: drop to the postgres user when we are root.
  const args = process.getuid?.() === 0 ? ["-u", "postgres", ini] : [ini];
  const child = spawn(bin, args, { stdio: ["ignore", "ignore", "inherit"] });
  const url = `postgresql://${u.username}@127.0.0.1:${port}/${db}`;
  for (let i = 0; i < 50; i++) {
    const c = new pg.Client({ connectionString: url });
    const ok = await c.connect().then(
      () => true,
      () => false,
    );
    await c.end().catch(() => {});
    if (ok) return { url, child };
    if (child.exitCode !== null) break;
    await sleep(200);
  }
  child.kill("SIGKILL");
  throw new Error("PgBouncer did not start");
}

/** Starts `npm start` in a role; resolves once it is ready (web: answers HTTP; worker: says so). */
async function startInstance(role: "web" | "worker", env: Record<string, string>, port: number): Promise<ChildProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // The worker serves no HTTP: it gets no PORT (start-up validation refuses 0).
  if (role === "web") childEnv.PORT = String(port);
  else delete childEnv.PORT;
  // No AUTH_SECRET: every instance must take the one stored in the database.
  delete childEnv.AUTH_SECRET;
  delete childEnv.NEXTAUTH_SECRET;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "start.ts"), `--${role}-only`], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "inherit"],
    env: childEnv,
  });
  let out = "";
  child.stdout?.on("data", (c) => {
    out += c;
    if (process.env.MULTI_VERBOSE) process.stdout.write(`[${role}:${port}] ${c}`);
  });
  if (role === "web") {
    await waitForHttp(`http://127.0.0.1:${port}/`, child, 240_000);
  } else {
    const deadline = Date.now() + 600_000;
    while (!/Job worker only/.test(out)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the worker did not start:\n${out}`);
      await sleep(250);
    }
  }
  return child;
}

type Json = Record<string, unknown> & { data?: unknown };

async function api(base: string, key: string, p: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const r = await fetch(`${base}${p}`, {
    method: init.method ?? "GET",
    headers: { authorization: key, "content-type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: r.status, headers: r.headers, body: (await r.json().catch(() => ({}))) as Json };
}

async function checks(a: string, b: string, direct: string, dataDir: string): Promise<void> {
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8"));
  const key: string = creds.api_keys.admin.key;
  const sql = new pg.Client({ connectionString: direct });
  await sql.connect();
  try {
    // 1. exactly-once write for one Idempotency-Key sent to both instances at once
    const name = `Multi-instance ${Date.now()}`;
    const idem = `multi-${Date.now()}`;
    const listed = await api(a, key, "/v2/standups?limit=25");
    const channel = (listed.body.data as Array<{ broadcast_channel: { id: string } | null }>).find((s) => s.broadcast_channel)
      ?.broadcast_channel?.id;
    const body = { name, broadcast_channel: channel, questions: [{ text: "What did you do?" }], days: ["Mon"], time: "09:00" };
    const send = async (base: string) => {
      for (let i = 0; i < 40; i++) {
        const r = await api(base, key, "/v2/standups", { method: "POST", body, headers: { "idempotency-key": idem } });
        if (r.status !== 409) return r;
        await sleep(250);
      }
      throw new Error("still 409 after 10 s");
    };
    const [ra, rb] = await Promise.all([send(a), send(b)]);
    const ids = [ra, rb].map((r) => (r.body.data as { id?: number } | undefined)?.id);
    const replayed = [ra, rb].filter((r) => r.headers.get("idempotent-replayed") === "true").length;
    const { rows: made } = await sql.query("SELECT count(*)::int AS n FROM checkins WHERE name = $1", [name]);
    check(
      "one Idempotency-Key on both instances writes once",
      ra.status < 300 && rb.status < 300 && ids[0] === ids[1] && replayed === 1 && made[0].n === 1,
      `statuses ${ra.status}/${rb.status}, ids ${ids.join("/")}, replayed ${replayed}, rows ${made[0].n}` +
        (ra.status >= 300 ? ` (${JSON.stringify(ra.body).slice(0, 200)})` : ""),
    );

    // 2. a cursor from A accepted by B
    const first = await api(a, key, "/v2/reports?limit=2");
    const cursor = first.body.next_cursor as string | null;
    const second = cursor ? await api(b, key, `/v2/reports?limit=2&cursor=${encodeURIComponent(cursor)}`) : null;
    const firstIds = (first.body.data as Array<{ id: number }>).map((r) => r.id);
    const secondIds = ((second?.body.data as Array<{ id: number }>) ?? []).map((r) => r.id);
    check(
      "a cursor made by A is accepted by B",
      !!cursor && second?.status === 200 && secondIds.length > 0 && !secondIds.some((id) => firstIds.includes(id)),
      `page 1 on A: ${firstIds.join(",")}; page 2 on B: ${second?.status} ${secondIds.join(",")}`,
    );

    // 3. a session signed in on A is valid on B
    const signIn = await signInWithPassword(a, creds.dashboard.email, creds.dashboard.password);
    const cookie = signIn.cookie;
    const session = (await (await fetch(`${b}/api/auth/session`, { headers: { cookie } })).json()) as { user?: { email?: string } };
    check(
      "a session signed in on A is valid on B",
      session.user?.email?.toLowerCase() === String(creds.dashboard.email).toLowerCase(),
      `sign-in on A ${signIn.status}; session on B: ${JSON.stringify(session.user ?? null)}`,
    );

    // 4. a revoked key is refused by both within 1 s (both have it cached first)
    const victim: string = creds.api_keys.member.key;
    const warm = await Promise.all([
      api(a, victim, "/v1/me"),
      api(b, victim, "/v1/me"),
      api(a, victim, "/v1/me"),
      api(b, victim, "/v1/me"),
    ]);
    const revokedAt = Date.now();
    await sql.query("UPDATE api_keys SET revoked_at = now() WHERE prefix = $1", [victim.slice(0, 12)]);
    // Poll both instances at once; the time counted is when the 401 arrived (an upper bound).
    const refusedAfter: Record<string, number> = {};
    await Promise.all(
      (
        [
          ["A", a],
          ["B", b],
        ] as const
      ).map(async ([label, base]) => {
        while (Date.now() - revokedAt < 3000) {
          if ((await api(base, victim, "/v1/me")).status === 401) {
            refusedAfter[label] = Date.now() - revokedAt;
            return;
          }
          await sleep(10);
        }
      }),
    );
    check(
      "a revoked key is refused by both instances within 1 s",
      warm.every((w) => w.status === 200) &&
        refusedAfter.A !== undefined &&
        refusedAfter.B !== undefined &&
        refusedAfter.A <= 1000 &&
        refusedAfter.B <= 1000,
      `warm-up ${warm.map((w) => w.status).join("/")}; 401 after A ${refusedAfter.A ?? "never"} ms, B ${refusedAfter.B ?? "never"} ms`,
    );

    // 5. concurrent scheduler runs create each occurrence once
    const { rows: due } = await sql.query<{ id: number }>(
      "UPDATE checkins SET next_run_at = now() - interval '1 minute' WHERE state = 'active' AND kind = 'standup' RETURNING id",
    );
    await sql.query("SELECT graphile_worker.add_job('schedule_tick', '{}'::json) FROM generate_series(1, 6)");
    const deadline = Date.now() + 60_000;
    let pending = 1;
    while (Date.now() < deadline) {
      const { rows } = await sql.query<{ n: number }>(
        "SELECT (SELECT count(*) FROM graphile_worker.jobs WHERE task_identifier = 'schedule_tick')::int + (SELECT count(*) FROM checkins WHERE id = ANY($1) AND next_run_at <= now())::int AS n",
        [due.map((d) => d.id)],
      );
      pending = rows[0].n;
      if (pending === 0) break;
      await sleep(250);
    }
    const { rows: dup } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT checkin_id, date FROM occurrences GROUP BY 1, 2 HAVING count(*) > 1) d`,
    );
    const { rows: dupAsked } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT occurrence_id, user_id FROM reports WHERE occurrence_id IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1) d`,
    );
    const { rows: today } = await sql.query<{ n: number }>(
      "SELECT count(DISTINCT checkin_id)::int AS n FROM occurrences WHERE checkin_id = ANY($1) AND created_at > now() - interval '5 minutes'",
      [due.map((d) => d.id)],
    );
    check(
      "six concurrent scheduler runs create each occurrence once",
      pending === 0 && dup[0].n === 0 && dupAsked[0].n === 0,
      `${due.length} due standups, ${today[0].n} got an occurrence now (the others already had today's); ` +
        `duplicate occurrences ${dup[0].n}, duplicate reports per occurrence member ${dupAsked[0].n}, left pending ${pending}`,
    );

    // 6. reports submitted on both instances at once: each broadcast is delivered once
    const standups = await api(a, key, "/v2/standups?include=questions&limit=25");
    const candidates = (standups.body.data as Array<{ id: number; broadcast_channel: unknown; questions?: Array<{ id: number }> }>).filter(
      (s) => s.broadcast_channel && s.questions?.length,
    );
    const submitted: number[] = [];
    const statuses: number[] = [];
    for (const target of candidates) {
      const report = {
        standup_id: target.id,
        answers: (target.questions ?? []).map((q) => ({ question_id: q.id, text: "Multi-instance" })),
      };
      // A standup the admin may report to (a member of it; others answer 404).
      const probe = await api(a, key, "/v2/reports", { method: "POST", body: report });
      statuses.push(probe.status);
      if (probe.status !== 200) continue;
      submitted.push((probe.body.data as { id: number }).id);
      const posted = await Promise.all(
        Array.from({ length: 39 }, (_, i) => api(i % 2 ? a : b, key, "/v2/reports", { method: "POST", body: report })),
      );
      for (const r of posted) {
        statuses.push(r.status);
        if (r.status === 200) submitted.push((r.body.data as { id: number }).id);
      }
      break;
    }
    // One report per person and run (issue 41): the 40 concurrent submissions are one report, the
    // later ones edits of it, so there is one report and one chat message for it, delivered (each
    // edit resets the message to pending, so its send count covers the versions, not retries).
    const reportIds = [...new Set(submitted)];
    const messages = async () =>
      (
        await sql.query<{ id: number; state: string; attempts: number }>(
          "SELECT id, delivery_state::text AS state, delivery_attempts AS attempts FROM chat_messages WHERE report_id = ANY($1) AND kind = 'report'",
          [reportIds],
        )
      ).rows;
    const deliveryDeadline = Date.now() + 60_000;
    let rows = await messages();
    while (Date.now() < deliveryDeadline && (rows.length < reportIds.length || rows.some((m) => m.state !== "delivered"))) {
      await sleep(250);
      rows = await messages();
    }
    const { rows: outboxLeft } = await sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM job_outbox WHERE task_identifier = 'deliver_chat_destination'",
    );
    check(
      "40 submissions of one report on both instances make one report, delivered once through the job outbox",
      submitted.length === 40 &&
        reportIds.length === 1 &&
        rows.length === 1 &&
        rows.every((m) => m.state === "delivered") &&
        outboxLeft[0].n === 0,
      `${submitted.length} of 40 acknowledged (statuses ${[...new Set(statuses)].join("/")}) as ${reportIds.length} report(s); ` +
        `${rows.length} chat message(s), ${rows.filter((m) => m.state === "delivered").length} delivered, ` +
        `${rows.map((m) => m.attempts).join("/")} send(s) for its versions; ${outboxLeft[0].n} of their jobs left in the job outbox`,
    );
  } finally {
    await sql.end();
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  ensurePrismaClient(log);
  ensureBuild(log);
  const dir = makeTempDir("checkin-multi-");
  const children: ChildProcess[] = [];
  let bouncer: ChildProcess | null = null;
  const database = await startEmbeddedPostgres({ dir: path.join(dir, "db"), purpose: "multi-instance test", persistent: false });
  try {
    const direct = database.url;
    const bin = which("pgbouncer");
    let pooled = direct;
    if (bin && !process.env.MULTI_NO_PGBOUNCER) {
      fs.mkdirSync(path.join(dir, "bouncer"), { recursive: true });
      const b = await startPgBouncer(bin, direct, path.join(dir, "bouncer"));
      bouncer = b.child;
      pooled = b.url;
      log(`PgBouncer (transaction mode) at ${new URL(pooled).host} in front of ${new URL(direct).host}`);
    } else {
      log("pgbouncer is not installed (apt-get install -y pgbouncer): web instances connect directly");
    }
    const appDir = path.join(dir, "app");
    const env = { CHECKIN_DATA_DIR: appDir, DIRECT_DATABASE_URL: direct };
    log("starting the worker (--worker-only: migrations, demo seed, job worker)…");
    children.push(await startInstance("worker", { ...env, DATABASE_URL: direct }, 0));
    const [pa, pb] = [await freePort(), await freePort()];
    log(`starting two web instances (--web-only) on ports ${pa} and ${pb}…`);
    const [wa, wb] = await Promise.all([
      startInstance("web", { ...env, DATABASE_URL: pooled }, pa),
      startInstance("web", { ...env, DATABASE_URL: pooled }, pb),
    ]);
    children.push(wa, wb);
    log(`ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await checks(`http://127.0.0.1:${pa}`, `http://127.0.0.1:${pb}`, direct, appDir);
  } catch (err) {
    check("set-up", false, (err as Error)?.message ?? String(err));
  } finally {
    await Promise.all(children.map((c) => stopProcess(c, 30_000)));
    if (bouncer) await stopProcess(bouncer, 5000);
    await database.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const failed = results.filter((r) => !r.ok).length;
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
