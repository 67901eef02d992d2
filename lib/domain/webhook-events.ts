/**
 * The one writer of outgoing webhook events (issue 9 "Outgoing webhooks"): one `webhook_deliveries`
 * row per enabled endpoint of the team subscribed to the event's type, with its `deliver_webhook`
 * job, all in the caller's transaction: a committed change always has its events, a rolled-back
 * one has none. Delivery (rendering, signing, retries) is lib/chat/webhooks.ts.
 *
 * An event about a report or a poll is a reference (issue 51): `{type, resource kind, resource
 * id}` and the event time (`created_at`); the delivery renders its `data`, the v2 resource, at its
 * first attempt and stores the payload, so every retry sends the same bytes
 * (lib/api/v2/webhook-data.ts). Other events (occurrence.*, retention.applied, webhook.test) store
 * their payload `{type, timestamp, data}` here; `timestamp` is the event time (ISO 8601 UTC).
 */
import { randomBytes } from "node:crypto";
import type { Tx } from "@/lib/db";
import type { Prisma, WebhookResourceKind } from "@/lib/generated/prisma/client";
import { enqueueJob } from "@/lib/jobs/enqueue";

/** Event types an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  "report.submitted",
  "report.updated",
  "report.deleted",
  "poll.created",
  "poll.closed",
  "occurrence.started",
  "occurrence.closed",
  "retention.applied",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Type of the test event sent from the dashboard / `POST /v2/webhooks/{id}/test` (never subscribed). */
export const TEST_EVENT_TYPE = "webhook.test";

/** A Standard Webhooks message id: `msg_` + 24 random bytes in base64url. */
export function newWebhookMessageId(): string {
  return `msg_${randomBytes(18).toString("base64url")}`;
}

/** A resource whose v2 rendering is an event's `data`, rendered at the delivery's first attempt. */
export type WebhookResource = { kind: WebhookResourceKind; id: number };

/** What an event carries: inline `data` (plain JSON), or a `resource` rendered at delivery. */
export type WebhookEventBody = { data: unknown } | { resource: WebhookResource };

/**
 * Enqueues `type` with inline `data` for every enabled endpoint of the team subscribed to it.
 * @param data the event's data (plain JSON), stored as it is.
 * @returns the number of deliveries enqueued (0 when no endpoint listens).
 */
export function emitEvent(tx: Tx, teamId: number, type: WebhookEventType, data: unknown, now: Date = new Date()): Promise<number> {
  return emitToEndpoints(tx, teamId, type, { data }, now);
}

/**
 * Enqueues `type` about `resource` (a reference: its `data` is the v2 resource as it is at the
 * delivery's first attempt) for every enabled endpoint of the team subscribed to it.
 * @returns the number of deliveries enqueued (0 when no endpoint listens).
 */
export function emitResourceEvent(
  tx: Tx,
  teamId: number,
  type: WebhookEventType,
  resource: WebhookResource,
  now: Date = new Date(),
): Promise<number> {
  return emitToEndpoints(tx, teamId, type, { resource }, now);
}

async function emitToEndpoints(tx: Tx, teamId: number, type: WebhookEventType, body: WebhookEventBody, now: Date): Promise<number> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { team_id: teamId, disabled_at: null, events: { has: type } },
    select: { id: true },
  });
  for (const e of endpoints) await enqueueDelivery(tx, { teamId, endpointId: e.id, type, ...body, now });
  return endpoints.length;
}

/**
 * Writes one delivery row and its job (job_key per delivery): the payload `{type, timestamp,
 * data}` of inline data, or the reference of a resource (payload rendered at the first attempt).
 * `now` (default: the current time) is the event time, stored as `created_at`.
 */
export async function enqueueDelivery(
  tx: Tx,
  input: { teamId: number; endpointId: number; type: string; now?: Date } & WebhookEventBody,
): Promise<{ id: number; messageId: string }> {
  const now = input.now ?? new Date();
  const event =
    "resource" in input
      ? { resource_kind: input.resource.kind, resource_id: input.resource.id }
      : { payload: { type: input.type, timestamp: now.toISOString(), data: input.data } as Prisma.InputJsonValue };
  const row = await tx.webhookDelivery.create({
    data: {
      team_id: input.teamId,
      endpoint_id: input.endpointId,
      message_id: newWebhookMessageId(),
      event_type: input.type,
      ...event,
      created_at: now,
    },
    select: { id: true, message_id: true },
  });
  await enqueueJob(tx, "deliver_webhook", { deliveryId: row.id }, { jobKey: `webhook_delivery:${row.id}`, maxAttempts: 25 });
  return { id: row.id, messageId: row.message_id };
}

/** Occurrence event types: a run/broadcast opened, a standup run closed, a poll broadcast closed. */
export type OccurrenceEventType = "occurrence.started" | "occurrence.closed" | "poll.closed";

/**
 * The `data` of occurrence events (a v2 extension, snake_case like every v2 resource): one run of a
 * standup or one broadcast of a poll. Instants are ISO 8601 UTC; `date` is the local date in the
 * checkin's timezone. `participation` is counted when the occurrence closes (null on
 * `occurrence.started`): `expected` members (asked, not excused), `responded` (submitted a report /
 * voted), `excused` (vacation or out of office), `missed` (standups: expected members recorded as
 * missed at close; polls record no misses, so 0).
 */
export type OccurrenceEventData = {
  id: number;
  kind: "standup" | "poll";
  standup_id: number | null;
  poll_id: number | null;
  date: string;
  trigger: string;
  scheduled_at: string;
  started_at: string | null;
  closes_at: string | null;
  closed_at: string | null;
  participation: { expected: number; responded: number; excused: number; missed: number } | null;
  /**
   * `poll.closed` only (issue 45): the broadcast's choice counts, per question in question order
   * and per choice in choice order (open-ended answers are not repeated here). For an anonymous
   * poll that fewer than the team's k people answered, `suppressed` is true, `answers_needed` says
   * how many more answers would show them and `questions` is empty.
   */
  results?: {
    suppressed: boolean;
    answers_needed: number;
    questions: Array<{ question_id: number; choices: Array<{ text: string; votes: number }> }>;
  };
};

/**
 * Emits an occurrence event for `occurrenceId` to the team's subscribed endpoints (same
 * transaction). Reads nothing more than one count when no endpoint listens.
 * @returns the number of deliveries enqueued.
 */
export async function emitOccurrenceEvent(
  tx: Tx,
  teamId: number,
  type: OccurrenceEventType,
  occurrenceId: number,
  now: Date = new Date(),
): Promise<number> {
  const listening = await tx.webhookEndpoint.count({ where: { team_id: teamId, disabled_at: null, events: { has: type } } });
  if (listening === 0) return 0;
  const rows = await tx.$queryRaw<
    Array<{
      id: number;
      kind: "standup" | "poll";
      checkin_id: number;
      date: string;
      trigger: string;
      scheduled_at: Date;
      started_at: Date | null;
      closes_at: Date | null;
      closed_at: Date | null;
      expected: number;
      responded: number;
      excused: number;
      missed: number;
      answers_needed: number;
      questions: Array<{ question_id: number; choices: Array<{ text: string; votes: number }> }>;
    }>
  >`
    SELECT o.id, c.kind::text AS kind, o.checkin_id, to_char(o.date, 'YYYY-MM-DD') AS date, o.trigger::text AS trigger,
      o.scheduled_at, o.started_at, o.closes_at, o.closed_at,
      m.expected, m.excused, m.missed,
      CASE WHEN c.kind = 'poll'
        THEN (SELECT count(DISTINCT COALESCE(v.user_id::text, v.voter_hash))::int FROM votes v WHERE v.occurrence_id = o.id)
        ELSE (SELECT count(DISTINCT r.user_id)::int FROM reports r WHERE r.occurrence_id = o.id AND r.status = 'submitted')
      END AS responded
      , a.answers_needed,
      CASE WHEN c.kind = 'poll' AND a.answers_needed = 0 THEN (
        SELECT COALESCE(json_agg(json_build_object('question_id', q.id, 'choices', (
            SELECT COALESCE(json_agg(json_build_object('text', ch.text, 'votes',
              (SELECT count(*)::int FROM votes v WHERE v.occurrence_id = o.id AND v.question_id = q.id AND v.choice = ch.text)) ORDER BY ch.n), '[]'::json)
            FROM unnest(q.choices) WITH ORDINALITY ch(text, n))) ORDER BY q.position, q.id), '[]'::json)
        FROM questions q WHERE q.checkin_id = c.id AND q.answer_type <> 'open_ended'
          AND (q.archived_at IS NULL OR EXISTS (SELECT 1 FROM votes v WHERE v.occurrence_id = o.id AND v.question_id = q.id)))
      ELSE '[]'::json END AS questions
    FROM occurrences o JOIN checkins c ON c.id = o.checkin_id
    -- k (issue 45): an anonymous poll's results need the team's anonymity_threshold distinct voters.
    CROSS JOIN LATERAL (SELECT CASE WHEN c.is_anonymous THEN greatest((SELECT t.anonymity_threshold FROM teams t WHERE t.id = o.team_id)
        - (SELECT count(DISTINCT COALESCE(v.user_id::text, v.voter_hash)) FROM votes v WHERE v.occurrence_id = o.id), 0)::int ELSE 0 END AS answers_needed) a
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE om.excused IS NULL)::int AS expected,
             count(*) FILTER (WHERE om.excused IS NOT NULL)::int AS excused,
             count(*) FILTER (WHERE om.missed_at IS NOT NULL)::int AS missed
      FROM occurrence_members om WHERE om.occurrence_id = o.id
    ) m
    WHERE o.id = ${occurrenceId}`;
  const o = rows[0];
  if (!o) return 0;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const data: OccurrenceEventData = {
    id: o.id,
    kind: o.kind,
    standup_id: o.kind === "standup" ? o.checkin_id : null,
    poll_id: o.kind === "poll" ? o.checkin_id : null,
    date: o.date,
    trigger: o.trigger,
    scheduled_at: o.scheduled_at.toISOString(),
    started_at: iso(o.started_at),
    closes_at: iso(o.closes_at),
    closed_at: iso(o.closed_at),
    participation:
      type === "occurrence.started" ? null : { expected: o.expected, responded: o.responded, excused: o.excused, missed: o.missed },
  };
  if (type === "poll.closed") {
    data.results = {
      suppressed: o.answers_needed > 0,
      answers_needed: o.answers_needed,
      questions: o.answers_needed > 0 ? [] : o.questions,
    };
  }
  return emitEvent(tx, teamId, type, data, now);
}
