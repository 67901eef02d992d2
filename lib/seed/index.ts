/**
 * Demo data for `npm run seed` and the first `npm start`: two teams (Acme Robotics, ~25 people,
 * five standups + a draft + two polls with 90 days of history; Globex Labs, 6 people, one daily
 * standup), every user's password "demo-password", and API keys written to
 * `.data/demo-credentials.json`. Deterministic apart from the API keys (see lib/seed/plan.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { createApiKey } from "@/lib/auth/api-keys";
import { hashPassword } from "@/lib/auth/password";
import type { Db, Tx } from "@/lib/db";
import { dataDir, port } from "@/lib/env";
import { type DemoPlan, planDemoData } from "@/lib/seed/plan";
import { type SeedCounts, writePlan } from "@/lib/seed/write";

/** Password of every demo user. */
export const DEMO_PASSWORD = "demo-password";

/** Every table that holds tenant data (all carry team_id); reset truncates exactly these. */
const TENANT_TABLES = [
  "chat_messages",
  "idempotency_records",
  "api_keys",
  "absences",
  "occurrence_summaries",
  "categorizations",
  "categories",
  "votes",
  "answers",
  "reports",
  "occurrence_members",
  "occurrences",
  "checkin_members",
  "questions",
  "checkins",
  "channel_members",
  "channels",
  "users",
  "teams",
];

/** Thrown when the database already holds teams and `reset` was not requested. */
export class SeedRefusedError extends Error {}

export type DemoApiKey = { team: string; team_id: number; email: string; user_id: string; name: string; key: string };

/** Shape of `.data/demo-credentials.json`. */
export type DemoCredentials = {
  note: string;
  generated_at: string;
  base_url: string;
  dashboard: { url: string; email: string; password: string };
  api_keys: { admin: DemoApiKey; member: DemoApiKey; other_team_member: DemoApiKey };
  example: string;
};

export type SeedOptions = {
  db: Db;
  /** Progress lines (default: silent). */
  log?: (line: string) => void;
  /** "Today" of the demo history; all dates are relative to it. */
  now?: Date;
  /** Delete all tenant data first (TRUNCATE ... RESTART IDENTITY CASCADE; namespaced: only its own teams). */
  reset?: boolean;
  /**
   * Makes team chat ids, names and email domains unique so several demo data sets can live in one
   * database (tests). 1–8 lowercase letters/digits. With a namespace the "already seeded" check and
   * `reset` only concern the teams of that namespace.
   */
  namespace?: string;
  /** Where to write the credentials JSON; default `<dataDir>/demo-credentials.json`; null: do not write. */
  credentialsFile?: string | null;
  /** Base URL shown in the credentials file (default http://localhost:$PORT). */
  baseUrl?: string;
};

export type SeedResult = {
  credentialsFile: string | null;
  credentials: DemoCredentials;
  teams: { id: number; chat_id: string; name: string; users: number; checkins: number }[];
  counts: SeedCounts;
  /** Wall-clock duration in milliseconds. */
  ms: number;
};

/** Default location of the credentials file: `<dataDir()>/demo-credentials.json`. */
export function defaultCredentialsFile(): string {
  return path.join(dataDir(), "demo-credentials.json");
}

async function clearExisting(tx: Tx, plan: DemoPlan, reset: boolean, log: (l: string) => void): Promise<void> {
  const chatIds = plan.teams.map((t) => t.chat_id);
  const existing = plan.namespace ? await tx.team.count({ where: { chat_id: { in: chatIds } } }) : await tx.team.count();
  if (existing === 0) return;
  if (!reset) {
    throw new SeedRefusedError(
      `The database already holds ${existing} team(s); refusing to seed over them. Re-run with --reset (npm run seed -- --reset) to delete all tenant data and seed again.`,
    );
  }
  if (plan.namespace) {
    const teams = await tx.team.findMany({ where: { chat_id: { in: chatIds } }, select: { id: true } });
    const ids = teams.map((t) => t.id);
    // checkins.owner_id is ON DELETE RESTRICT, so checkins go before the cascade from teams.
    await tx.checkin.deleteMany({ where: { team_id: { in: ids } } });
    await tx.team.deleteMany({ where: { id: { in: ids } } });
    log(`Deleted ${ids.length} existing team(s) of namespace ${plan.namespace}.`);
    return;
  }
  await tx.$executeRawUnsafe(`TRUNCATE TABLE ${TENANT_TABLES.map((t) => `"${t}"`).join(", ")} RESTART IDENTITY CASCADE`);
  log(`Reset: deleted all tenant data (${existing} team(s)).`);
}

/**
 * Seeds the demo data in one transaction and writes the credentials file.
 * @returns the credentials (dashboard login, three API keys), the created teams and row counts.
 * @throws SeedRefusedError when teams already exist and `reset` is not set; any database error
 *   (nothing is left behind: the transaction rolls back).
 */
export async function seedDemoData(options: SeedOptions): Promise<SeedResult> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const now = options.now ?? new Date();
  const plan = planDemoData({ now, namespace: options.namespace });
  const h = plan.history;
  log(
    `Planned ${plan.teams.length} teams, ${plan.teams.reduce((n, t) => n + t.users.length, 0)} users, ${h.occurrences.length} occurrences, ` +
      `${h.reports.length} reports, ${h.votes.length} votes (${Date.now() - started} ms)`,
  );
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const baseUrl = options.baseUrl ?? `http://localhost:${port()}`;

  const { counts, credentials, teams } = await options.db.$transaction(
    async (tx) => {
      await clearExisting(tx, plan, options.reset ?? false, log);
      log("Writing demo data…");
      const { ids, counts } = await writePlan(tx, plan, passwordHash, log);
      const [acme, globex] = plan.teams as [DemoPlan["teams"][number], DemoPlan["teams"][number]];
      const keyFor = async (team: typeof acme, index: number, name: string): Promise<DemoApiKey> => {
        const user = team.users[index];
        if (!user) throw new Error(`seed: no user ${index} in ${team.name}`);
        const teamId = ids.teams.get(team.slug) as number;
        const { key } = await createApiKey(tx, { teamId, userId: ids.users.get(user.key) as number, name });
        return { team: team.name, team_id: teamId, email: user.email, user_id: user.chat_id, name: user.realname, key };
      };
      const admin = await keyFor(acme, 0, "Demo key (admin)");
      const member = await keyFor(acme, 5, "Demo key (member)");
      const other = await keyFor(globex, 1, "Demo key (other team member)");
      const credentials: DemoCredentials = {
        note: `Demo data from npm run seed. Every demo user's password is "${DEMO_PASSWORD}". API keys are shown only here; create more with npm run api-key -- --email <email>.`,
        generated_at: now.toISOString(),
        base_url: baseUrl,
        dashboard: { url: `${baseUrl}/sign-in`, email: admin.email, password: DEMO_PASSWORD },
        api_keys: { admin, member, other_team_member: other },
        example: `curl -H "Authorization: ${admin.key}" ${baseUrl}/v2/reports`,
      };
      const teams = plan.teams.map((t) => ({
        id: ids.teams.get(t.slug) as number,
        chat_id: t.chat_id,
        name: t.name,
        users: t.users.length,
        checkins: t.checkins.length,
      }));
      return { counts, credentials, teams };
    },
    { timeout: 180_000, maxWait: 20_000 },
  );

  // Planner statistics now: autovacuum never analyzes a table of under 50 rows (questions,
  // checkins, users of a small team), and without statistics the planner guesses 500 rows each.
  await options.db.$executeRawUnsafe("ANALYZE");
  const file = options.credentialsFile === undefined ? defaultCredentialsFile() : options.credentialsFile;
  if (file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
    log(`Wrote ${file}`);
  }
  const ms = Date.now() - started;
  log(`Seeded in ${(ms / 1000).toFixed(1)} s`);
  return { credentialsFile: file, credentials, teams, counts, ms };
}
