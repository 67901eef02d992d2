/**
 * Test data factories against the real test database. Every call makes uniquely named rows
 * (random chat ids, emails), so test files run in parallel on one database without resets.
 */
import { randomBytes } from "node:crypto";
import { createApiKey } from "@/lib/auth/api-keys";
import { db } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import type { AnswerType, CheckinKind, CheckinState, ReportStatus } from "@/lib/generated/prisma/client";

const rid = (n = 8) => randomBytes(n).toString("hex").toUpperCase().slice(0, n);

export type TestUser = {
  id: number;
  chat_id: string;
  email: string;
  username: string;
  realname: string;
  is_admin: boolean;
  key: string;
  actor: Actor;
};
export type TestChannel = { id: number; chat_id: string; name: string };
export type TestTeam = { id: number; name: string; admin: TestUser; users: TestUser[]; channels: TestChannel[] };

/** Creates a user with an API key in a team. */
export async function createTestUser(
  teamId: number,
  opts: { isAdmin?: boolean; name?: string; timezone?: string } = {},
): Promise<TestUser> {
  const suffix = rid(8);
  const first = opts.name ?? `User${suffix.slice(0, 4)}`;
  const user = await db.user.create({
    data: {
      team_id: teamId,
      chat_id: `U${suffix}`,
      username: `${first.toLowerCase()}.${suffix.toLowerCase()}`,
      realname: `${first} Tester`,
      firstname: first,
      email: `${first.toLowerCase()}.${suffix.toLowerCase()}@test.example`,
      avatar_url: `https://avatars.test.example/${suffix}.png`,
      timezone: opts.timezone ?? "UTC",
      is_admin: opts.isAdmin ?? false,
      role: opts.isAdmin ? "admin" : "member",
    },
  });
  const { key } = await createApiKey(db, { teamId, userId: user.id, name: "test" });
  return {
    id: user.id,
    chat_id: user.chat_id,
    email: user.email,
    username: user.username,
    realname: user.realname,
    is_admin: user.is_admin,
    key,
    actor: { teamId, userId: user.id, userChatId: user.chat_id, isAdmin: user.is_admin, role: user.role },
  };
}

/** Creates a team with an admin, `members` ordinary users, and two channels (#general with everyone, #eng with the first half). */
export async function createTestTeam(opts: { members?: number; name?: string } = {}): Promise<TestTeam> {
  const team = await db.team.create({ data: { chat_id: `T${rid(8)}`, name: opts.name ?? `Team ${rid(4)}` } });
  const admin = await createTestUser(team.id, { isAdmin: true, name: "Admin" });
  const users: TestUser[] = [admin];
  for (let i = 0; i < (opts.members ?? 4); i++) users.push(await createTestUser(team.id, { name: `Member${i}` }));
  const general = await createTestChannel(team.id, `general-${rid(4).toLowerCase()}`, users);
  const eng = await createTestChannel(team.id, `eng-${rid(4).toLowerCase()}`, users.slice(0, Math.ceil(users.length / 2)));
  return { id: team.id, name: team.name, admin, users, channels: [general, eng] };
}

/**
 * The two teams most API tests start from: team A (an admin and `members` ordinary users, default
 * 4, plus #general and #eng) and team B (one member: "another team"). `admin` and `m0`…`m3` are
 * A's users in order (`mN` is undefined when A has fewer members).
 */
export type StandardTeams = { A: TestTeam; B: TestTeam; admin: TestUser; m0: TestUser; m1: TestUser; m2: TestUser; m3: TestUser };

/** Creates the standard teams (see `StandardTeams`); A first, then B. */
export async function standardTeams(opts: { members?: number; name?: string } = {}): Promise<StandardTeams> {
  const A = await createTestTeam({ members: opts.members ?? 4, ...(opts.name ? { name: opts.name } : {}) });
  const B = await createTestTeam({ members: 1 });
  const [admin, m0, m1, m2, m3] = A.users;
  return { A, B, admin, m0, m1, m2, m3 };
}

/** Creates a channel with members. */
export async function createTestChannel(teamId: number, name: string, members: Array<{ id: number }>): Promise<TestChannel> {
  const channel = await db.channel.create({ data: { team_id: teamId, chat_id: `C${rid(8)}`, name } });
  if (members.length)
    await db.channelMember.createMany({ data: members.map((m) => ({ team_id: teamId, channel_id: channel.id, user_id: m.id })) });
  return { id: channel.id, chat_id: channel.chat_id, name: channel.name };
}

export type TestQuestion = { text: string; answer_type?: AnswerType; choices?: string[] };

/** Creates a standup (or poll with kind "poll") with questions and members. */
export async function createTestCheckin(
  team: TestTeam,
  opts: {
    kind?: CheckinKind;
    name?: string;
    owner?: TestUser;
    members?: TestUser[];
    state?: CheckinState;
    is_anonymous?: boolean;
    is_confidential?: boolean;
    channel?: TestChannel | null;
    questions?: TestQuestion[];
    created_at?: Date;
    days?: string[];
    time?: string;
    timezone?: string;
  } = {},
) {
  const owner = opts.owner ?? team.admin;
  const questions = opts.questions ?? [
    { text: "What did you do yesterday?" },
    { text: "What will you do today?" },
    { text: "Anything blocking you?" },
  ];
  const checkin = await db.checkin.create({
    data: {
      team_id: team.id,
      kind: opts.kind ?? "standup",
      name: opts.name ?? `Checkin ${rid(4)}`,
      state: opts.state ?? "active",
      owner_id: owner.id,
      is_anonymous: opts.is_anonymous ?? false,
      is_confidential: opts.is_confidential ?? false,
      broadcast_channel_id: opts.channel === null ? null : (opts.channel ?? team.channels[0]).id,
      days: opts.days ?? ["Mon", "Tue", "Wed", "Thu", "Fri"],
      time: opts.time ?? "09:00:00",
      timezone: opts.timezone ?? "UTC",
      ...(opts.created_at ? { created_at: opts.created_at } : {}),
      questions: {
        create: questions.map((q, position) => ({
          position,
          text: q.text,
          answer_type: q.answer_type ?? (q.choices ? "multiple_choice" : "text"),
          choices: q.choices ?? [],
        })),
      },
      members: { create: (opts.members ?? team.users).map((u) => ({ user_id: u.id })) },
    },
    include: { questions: { orderBy: { position: "asc" } } },
  });
  return checkin;
}

/** Creates an occurrence with a member snapshot on a local date (YYYY-MM-DD). */
export async function createTestOccurrence(checkin: { id: number; team_id: number }, date: string, members: Array<{ id: number }>) {
  return db.occurrence.create({
    data: {
      team_id: checkin.team_id,
      checkin_id: checkin.id,
      date: new Date(`${date}T00:00:00Z`),
      scheduled_at: new Date(`${date}T09:00:00Z`),
      started_at: new Date(`${date}T09:00:00Z`),
      trigger: "seed",
      members: { create: members.map((m) => ({ user_id: m.id })) },
    },
  });
}

/** A run of `checkin` dated today (UTC) and scheduled now, with no members (as a manual start leaves it before asking). */
export async function createTodayOccurrence(checkin: { id: number; team_id: number }) {
  return db.occurrence.create({
    data: {
      team_id: checkin.team_id,
      checkin_id: checkin.id,
      date: new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`),
      scheduled_at: new Date(),
    },
  });
}

/**
 * Creates a report with one answer per question of the standup. Its stored `is_anonymous` is
 * `opts.is_anonymous`, defaulting to the standup's flag (what a real submission stores on an
 * anonymous standup); pass `is_anonymous: false` on an anonymous standup to model a standup made
 * anonymous after the report was submitted.
 */
export async function createTestReport(
  checkin: { id: number; team_id: number; is_anonymous?: boolean; questions: Array<{ id: number }> },
  user: { id: number },
  opts: { status?: ReportStatus; submitted_at?: Date; is_anonymous?: boolean; occurrence_id?: number; answers?: string[] } = {},
) {
  const status = opts.status ?? "submitted";
  return db.report.create({
    data: {
      team_id: checkin.team_id,
      checkin_id: checkin.id,
      user_id: user.id,
      occurrence_id: opts.occurrence_id,
      status,
      is_anonymous: opts.is_anonymous ?? checkin.is_anonymous ?? false,
      submitted_at: status === "pending" ? null : (opts.submitted_at ?? new Date()),
      discarded_at: status === "discarded" ? new Date() : null,
      answers: {
        create: checkin.questions.map((q, i) => ({
          question_id: q.id,
          text: opts.answers?.[i] ?? `Answer ${i + 1}`,
        })),
      },
    },
    include: { answers: true },
  });
}

/**
 * Hands every job waiting in the job outbox to graphile-worker now, as a running worker's
 * dispatcher does within about 200 ms (lib/jobs/outbox.ts; `checkin_dispatch_jobs`).
 * @returns the number of jobs handed over.
 */
export async function dispatchJobOutbox(): Promise<number> {
  const rows = await db.$queryRaw<Array<{ moved: number }>>`SELECT checkin_dispatch_jobs(100000) AS moved`;
  return rows[0]?.moved ?? 0;
}

/** Whether a job of `key` is queued: waiting in the job outbox, or handed to graphile-worker. */
export async function jobQueued(key: string): Promise<boolean> {
  const rows = await db.$queryRaw<Array<{ n: bigint }>>`
    SELECT (SELECT count(*) FROM graphile_worker.jobs WHERE key = ${key}) + (SELECT count(*) FROM job_outbox WHERE job_key = ${key}) AS n`;
  return Number(rows[0].n) > 0;
}

/** Removes the queued jobs of `keys`, from the job outbox and from graphile-worker. */
export async function unqueueJobs(keys: string[]): Promise<void> {
  await db.$executeRaw`DELETE FROM job_outbox WHERE job_key = ANY(${keys}::text[])`;
  for (const key of keys) await db.$executeRaw`SELECT graphile_worker.remove_job(${key})`;
}
