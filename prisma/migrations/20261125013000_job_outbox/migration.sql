-- CreateTable
CREATE TABLE "job_outbox" (
    "id" BIGSERIAL NOT NULL,
    "task_identifier" TEXT NOT NULL,
    "payload" JSON NOT NULL,
    "queue_name" TEXT,
    "run_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "max_attempts" SMALLINT,
    "job_key" TEXT,
    "job_key_mode" TEXT,

    CONSTRAINT "job_outbox_pkey" PRIMARY KEY ("id")
);

-- The job outbox (issue 14, lib/jobs/outbox.ts). graphile_worker.add_job ends with pg_notify, and
-- a transaction that notifies takes PostgreSQL's one lock on the notification queue at commit and
-- holds it until its commit record is flushed: with fsync on, every transaction that enqueued a job
-- committed after the previous one's WAL flush, one at a time (on the development machine, 16
-- concurrent report submissions committed 706–869 times a second; 1,275–1,539 through this
-- outbox). Writes now insert their jobs here, in their own transaction; the worker's dispatcher
-- moves them to graphile-worker in batches (`checkin_dispatch_jobs`), one notifying commit per
-- batch.

-- An unknown job_key_mode fails the write that enqueues it (as add_job would), not the dispatch.
ALTER TABLE "job_outbox" ADD CONSTRAINT "job_outbox_job_key_mode_check"
  CHECK ("job_key_mode" IN ('replace', 'preserve_run_at', 'unsafe_dedupe'));

-- Enqueues one job in the caller's transaction; the arguments are graphile_worker.add_job's.
CREATE FUNCTION "checkin_enqueue_job"(
  identifier TEXT,
  payload JSON,
  queue_name TEXT DEFAULT NULL,
  run_at TIMESTAMPTZ DEFAULT NULL,
  max_attempts INTEGER DEFAULT NULL,
  job_key TEXT DEFAULT NULL,
  job_key_mode TEXT DEFAULT NULL
) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "job_outbox" ("task_identifier", "payload", "queue_name", "run_at", "max_attempts", "job_key", "job_key_mode")
  VALUES (identifier, COALESCE(payload, '{}'::json), queue_name, COALESCE(run_at, now()), max_attempts::smallint, job_key, job_key_mode);
$$;

-- Moves up to max_jobs outbox rows, oldest first, to graphile-worker and deletes them, in one
-- transaction; rows another dispatcher holds are skipped. Consecutive rows go in one
-- graphile_worker.add_jobs call (one notification for the lot) as long as they share a key mode
-- and repeat no job key; a repeated key starts a new call, so a later row replaces (or, with
-- preserve_run_at, keeps the due time of) an earlier one's queued job as if the writes had called
-- add_job. unsafe_dedupe rows, which add_jobs does not take, go through add_job one by one.
-- Returns the number of rows moved.
-- Its body names graphile-worker's types, whose schema is created after these migrations
-- (lib/runtime/migrate.ts); it is checked when first called.
SET check_function_bodies = off;
CREATE FUNCTION "checkin_dispatch_jobs"(max_jobs INTEGER) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
  r "job_outbox";
  moved BIGINT[] := '{}';
  specs graphile_worker.job_spec[] := '{}';
  spec_keys TEXT[] := '{}';
  spec_mode TEXT := NULL;
  mode TEXT;
BEGIN
  FOR r IN SELECT * FROM "job_outbox" ORDER BY "id" LIMIT max_jobs FOR UPDATE SKIP LOCKED LOOP
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
    moved := moved || r."id";
  END LOOP;
  IF cardinality(specs) > 0 THEN
    PERFORM graphile_worker.add_jobs(specs, spec_mode = 'preserve_run_at');
  END IF;
  DELETE FROM "job_outbox" WHERE "id" = ANY(moved);
  RETURN cardinality(moved);
END;
$$;
RESET check_function_bodies;

-- Chat deliveries (migration 20261122165418_delivery) go through the outbox.
CREATE OR REPLACE FUNCTION "chat_messages_enqueue_delivery"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.delivery_state = 'pending' AND (
    TG_OP = 'INSERT'
    OR OLD.delivery_state IS DISTINCT FROM NEW.delivery_state
    OR OLD.text IS DISTINCT FROM NEW.text
    OR OLD.blocks IS DISTINCT FROM NEW.blocks
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
  ) THEN
    PERFORM "checkin_enqueue_job"(
      'deliver_chat_message',
      json_build_object('messageId', NEW.id),
      queue_name := 'chat:' || COALESCE('c' || NEW.channel_id::text, 'u' || NEW.recipient_id::text, 'm' || NEW.id::text),
      max_attempts := 10,
      job_key := 'chat_message:' || NEW.id::text
    );
  END IF;
  RETURN NEW;
END;
$$;

-- The stored participation counts and poll results (migrations 20261123220000_participation_counts,
-- 20261123180000_poll_results) enqueue their store jobs through the outbox too: no write
-- transaction calls graphile_worker.add_job any more.
CREATE OR REPLACE FUNCTION "participation_counts_invalidate"(ids INTEGER[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  changed INTEGER;
BEGIN
  FOR changed IN
    UPDATE "occurrences" o SET "counts_version" = o."counts_version" + 1
    WHERE o."id" = ANY(ids) AND o."closed_at" IS NOT NULL
    RETURNING o."id"
  LOOP
    PERFORM "checkin_enqueue_job"(
      'store_participation_counts',
      json_build_object('occurrenceId', changed),
      run_at := now() + interval '2 seconds',
      max_attempts := 5,
      job_key := 'participation_counts:' || changed::text
    );
  END LOOP;
END;
$$;

CREATE OR REPLACE FUNCTION "occurrences_store_participation_counts"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    NEW."counts_version" := OLD."counts_version" + 1;
  END IF;
  IF NEW."closed_at" IS NOT NULL THEN
    PERFORM "checkin_enqueue_job"(
      'store_participation_counts',
      json_build_object('occurrenceId', NEW."id"),
      max_attempts := 5,
      job_key := 'participation_counts:' || NEW."id"::text
    );
  END IF;
  RETURN NEW;
END;
$$;

CREATE OR REPLACE FUNCTION "poll_results_invalidate"(ids INTEGER[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  changed INTEGER;
BEGIN
  FOR changed IN
    UPDATE "occurrences" o SET "results_version" = o."results_version" + 1
    FROM "checkins" c
    WHERE o."id" = ANY(ids) AND o."closed_at" IS NOT NULL AND c."id" = o."checkin_id" AND c."kind" = 'poll'
    RETURNING o."id"
  LOOP
    PERFORM "checkin_enqueue_job"(
      'store_poll_results',
      json_build_object('occurrenceId', changed),
      run_at := now() + interval '2 seconds',
      max_attempts := 5,
      job_key := 'poll_results:' || changed::text
    );
  END LOOP;
END;
$$;

CREATE OR REPLACE FUNCTION "occurrences_store_poll_results"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW."results_version" := OLD."results_version" + 1;
  IF NEW."closed_at" IS NOT NULL AND EXISTS (SELECT 1 FROM "checkins" c WHERE c."id" = NEW."checkin_id" AND c."kind" = 'poll') THEN
    PERFORM "checkin_enqueue_job"(
      'store_poll_results',
      json_build_object('occurrenceId', NEW."id"),
      max_attempts := 5,
      job_key := 'poll_results:' || NEW."id"::text
    );
  END IF;
  RETURN NEW;
END;
$$;
