-- AlterTable
ALTER TABLE "chat_messages" ADD COLUMN     "delivery_failures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "delivery_retry_at" TIMESTAMPTZ(3);

-- Delivery by destination (issue 14, lib/chat/destination-drain.ts). Until now every message that
-- became pending got a deliver_chat_message job of its own in its destination's queue. A backlog in
-- one channel was one queued job per message; each graphile_worker get_job passed over all of them
-- while their queue was locked by the one running, and idle worker slots called get_job again on
-- every notification (npm run bench's POST runs: 1,936 get_job calls for 590 deliveries, 0.53 ms
-- each, 2 ms behind a 10,000-job backlog). Now a message that becomes pending enqueues one job per
-- destination (channel, or recipient of a direct message): deliver_chat_destination, job key
-- chat_destination:<destination>, preserve_run_at so a destination told to wait (a platform's
-- Retry-After) keeps waiting. The job delivers the destination's pending messages in order, each
-- with its own retry state (the two columns above), until none is due.

-- A destination's pending messages, in order (the drain's next-message and earliest-retry reads).
-- Pending messages are few, so the indexes stay small. Prisma's schema cannot express a partial
-- index; the ChatMessage model names them in a comment.
CREATE INDEX "chat_messages_pending_channel_id_id_idx" ON "chat_messages" ("channel_id", "id") WHERE "delivery_state" = 'pending';
CREATE INDEX "chat_messages_pending_recipient_id_id_idx" ON "chat_messages" ("recipient_id", "id") WHERE "delivery_state" = 'pending' AND "channel_id" IS NULL;

-- A message that changes (edited, removed, retried by an admin) starts its retries afresh: its next
-- run is due at once and counts from attempt 1, as graphile-worker's add_job did for the job it
-- replaced.
CREATE FUNCTION "chat_messages_reset_retry"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.delivery_state IS DISTINCT FROM NEW.delivery_state
    OR OLD.text IS DISTINCT FROM NEW.text
    OR OLD.blocks IS DISTINCT FROM NEW.blocks
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
  THEN
    NEW."delivery_failures" := 0;
    NEW."delivery_retry_at" := NULL;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "chat_messages_reset_retry"
BEFORE UPDATE ON "chat_messages"
FOR EACH ROW WHEN (NEW.delivery_state = 'pending') EXECUTE FUNCTION "chat_messages_reset_retry"();

-- One job per destination instead of one per message (see above). A pending message whose
-- destination changes (its channel deleted) enqueues the job of its new destination. Jobs of
-- deliver_chat_message queued before this migration still run: that task drains its message's
-- destination.
CREATE OR REPLACE FUNCTION "chat_messages_enqueue_delivery"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  destination TEXT := COALESCE('c' || NEW.channel_id::text, 'u' || NEW.recipient_id::text, 'm' || NEW.id::text);
BEGIN
  IF NEW.delivery_state = 'pending' AND (
    TG_OP = 'INSERT'
    OR OLD.delivery_state IS DISTINCT FROM NEW.delivery_state
    OR OLD.text IS DISTINCT FROM NEW.text
    OR OLD.blocks IS DISTINCT FROM NEW.blocks
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
    OR OLD.channel_id IS DISTINCT FROM NEW.channel_id
    OR OLD.recipient_id IS DISTINCT FROM NEW.recipient_id
  ) THEN
    PERFORM "checkin_enqueue_job"(
      'deliver_chat_destination',
      json_build_object('destination', destination),
      queue_name := 'chat:' || destination,
      max_attempts := 10,
      job_key := 'chat_destination:' || destination,
      job_key_mode := 'preserve_run_at'
    );
  END IF;
  RETURN NEW;
END;
$$;

-- The dispatcher (migration 20261125013000_job_outbox) now leaves out a preserve_run_at row whose
-- previous row of the same job key in the batch asked for the same job no later: handing it over
-- would change nothing (the job of the earlier row keeps its due time). A burst of messages to one
-- channel is then one add_jobs call instead of one call per message (a repeated key splits calls).
SET check_function_bodies = off;
CREATE OR REPLACE FUNCTION "checkin_dispatch_jobs"(max_jobs INTEGER) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  taken BIGINT[];
  specs graphile_worker.job_spec[] := '{}';
  spec_keys TEXT[] := '{}';
  spec_mode TEXT := NULL;
  mode TEXT;
BEGIN
  SELECT array_agg(s."id") INTO taken
  FROM (SELECT "id" FROM "job_outbox" ORDER BY "id" LIMIT max_jobs FOR UPDATE SKIP LOCKED) s;
  IF taken IS NULL THEN
    RETURN 0;
  END IF;
  FOR r IN
    SELECT o.*,
      o."job_key" IS NOT NULL AND o."job_key_mode" = 'preserve_run_at'
        AND lag(ROW(o."task_identifier", o."payload"::text, o."queue_name", o."max_attempts", o."job_key_mode")::text) OVER w
          = ROW(o."task_identifier", o."payload"::text, o."queue_name", o."max_attempts", o."job_key_mode")::text
        AND lag(o."run_at") OVER w <= o."run_at" AS "redundant"
    FROM "job_outbox" o
    WHERE o."id" = ANY(taken)
    WINDOW w AS (PARTITION BY o."job_key" ORDER BY o."id")
    ORDER BY o."id"
  LOOP
    CONTINUE WHEN r."redundant";
    mode := COALESCE(r."job_key_mode", 'replace');
    IF cardinality(specs) > 0 AND (mode IS DISTINCT FROM spec_mode OR r."job_key" = ANY(spec_keys)) THEN
      PERFORM graphile_worker.add_jobs(specs, spec_mode = 'preserve_run_at');
      specs := '{}';
      spec_keys := '{}';
    END IF;
    IF mode = 'unsafe_dedupe' THEN
      PERFORM graphile_worker.add_job(r."task_identifier", r."payload", queue_name := r."queue_name", run_at := r."run_at",
        max_attempts := r."max_attempts", job_key := r."job_key", job_key_mode := mode);
    ELSE
      specs := specs || ROW(r."task_identifier", r."payload", r."queue_name", r."run_at", r."max_attempts", r."job_key", NULL, NULL)::graphile_worker.job_spec;
      IF r."job_key" IS NOT NULL THEN spec_keys := spec_keys || r."job_key"; END IF;
      spec_mode := mode;
    END IF;
  END LOOP;
  IF cardinality(specs) > 0 THEN
    PERFORM graphile_worker.add_jobs(specs, spec_mode = 'preserve_run_at');
  END IF;
  DELETE FROM "job_outbox" WHERE "id" = ANY(taken);
  RETURN cardinality(taken);
END;
$$;
RESET check_function_bodies;
