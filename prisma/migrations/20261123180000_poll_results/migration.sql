-- AlterTable
ALTER TABLE "occurrences" ADD COLUMN     "results_version" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "poll_results" (
    "team_id" INTEGER NOT NULL,
    "occurrence_id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "questions" TEXT NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "poll_results_pkey" PRIMARY KEY ("team_id","occurrence_id")
);

-- AddForeignKey
ALTER TABLE "poll_results" ADD CONSTRAINT "poll_results_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "poll_results" ADD CONSTRAINT "poll_results_team_id_occurrence_id_fkey" FOREIGN KEY ("team_id", "occurrence_id") REFERENCES "occurrences"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Stored poll results (issue 14): GET /v2/polls/{id}/votes reads a closed broadcast's results from
-- poll_results while its version equals the occurrence's results_version, and computes them live
-- otherwise. These triggers bump results_version of every closed poll broadcast whose results a
-- change alters (its votes, its categorizations, the poll's questions or anonymity, a voter's chat
-- id), in the transaction of that change, and enqueue `store_poll_results` (lib/jobs/tasks.ts) to
-- store them again; closing a poll broadcast enqueues it too. The store job reads results_version
-- in the same statement (snapshot) as the votes, so a change committed meanwhile leaves the stored
-- row one version behind: never used, stored again by the job that change enqueued.
CREATE FUNCTION "poll_results_invalidate"(ids INTEGER[]) RETURNS void
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
    PERFORM graphile_worker.add_job(
      'store_poll_results',
      json_build_object('occurrenceId', changed),
      run_at := now() + interval '2 seconds',
      max_attempts := 5,
      job_key := 'poll_results:' || changed::text
    );
  END LOOP;
END;
$$;

-- A row that belongs to one broadcast (a vote, a categorization) changed: that broadcast (both, when moved).
CREATE FUNCTION "occurrence_row_invalidate_poll_results"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM "poll_results_invalidate"(ARRAY[OLD."occurrence_id"]);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "poll_results_invalidate"(ARRAY[OLD."occurrence_id", NEW."occurrence_id"]);
  ELSE
    PERFORM "poll_results_invalidate"(ARRAY[NEW."occurrence_id"]);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "votes_invalidate_poll_results"
AFTER INSERT OR UPDATE OR DELETE ON "votes"
FOR EACH ROW EXECUTE FUNCTION "occurrence_row_invalidate_poll_results"();

CREATE TRIGGER "categorizations_invalidate_poll_results"
AFTER INSERT OR DELETE ON "categorizations"
FOR EACH ROW EXECUTE FUNCTION "occurrence_row_invalidate_poll_results"();

-- The results show a categorization's status and categories, not its attempts or errors.
CREATE TRIGGER "categorizations_invalidate_poll_results_on_update"
AFTER UPDATE ON "categorizations"
FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."categories" IS DISTINCT FROM NEW."categories"
  OR OLD."occurrence_id" IS DISTINCT FROM NEW."occurrence_id" OR OLD."question_id" IS DISTINCT FROM NEW."question_id")
EXECUTE FUNCTION "occurrence_row_invalidate_poll_results"();

CREATE FUNCTION "questions_invalidate_poll_results"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  poll INTEGER;
BEGIN
  -- questions: the poll they belong to; checkins (anonymity): the poll itself
  IF TG_TABLE_NAME = 'checkins' THEN
    poll := NEW."id";
  ELSIF TG_OP = 'DELETE' THEN
    poll := OLD."checkin_id";
  ELSE
    poll := NEW."checkin_id";
  END IF;
  IF NOT EXISTS (SELECT 1 FROM "checkins" c WHERE c."id" = poll AND c."kind" = 'poll') THEN
    RETURN NULL; -- a standup's question
  END IF;
  PERFORM "poll_results_invalidate"(ARRAY(SELECT o."id" FROM "occurrences" o WHERE o."checkin_id" = poll AND o."closed_at" IS NOT NULL));
  RETURN NULL;
END;
$$;

CREATE TRIGGER "questions_invalidate_poll_results"
AFTER INSERT OR UPDATE OR DELETE ON "questions"
FOR EACH ROW EXECUTE FUNCTION "questions_invalidate_poll_results"();

CREATE TRIGGER "checkins_invalidate_poll_results"
AFTER UPDATE OF "is_anonymous" ON "checkins"
FOR EACH ROW WHEN (OLD."is_anonymous" IS DISTINCT FROM NEW."is_anonymous" AND NEW."kind" = 'poll')
EXECUTE FUNCTION "questions_invalidate_poll_results"();

CREATE FUNCTION "users_invalidate_poll_results"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "poll_results_invalidate"(ARRAY(SELECT DISTINCT v."occurrence_id" FROM "votes" v WHERE v."user_id" = NEW."id"));
  RETURN NULL;
END;
$$;

CREATE TRIGGER "users_invalidate_poll_results"
AFTER UPDATE OF "chat_id" ON "users"
FOR EACH ROW WHEN (OLD."chat_id" IS DISTINCT FROM NEW."chat_id")
EXECUTE FUNCTION "users_invalidate_poll_results"();

-- Closing (or re-opening) a broadcast changes what it may hold: a new version, and when a poll
-- broadcast closes, its results are stored.
CREATE FUNCTION "occurrences_store_poll_results"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW."results_version" := OLD."results_version" + 1;
  IF NEW."closed_at" IS NOT NULL AND EXISTS (SELECT 1 FROM "checkins" c WHERE c."id" = NEW."checkin_id" AND c."kind" = 'poll') THEN
    PERFORM graphile_worker.add_job(
      'store_poll_results',
      json_build_object('occurrenceId', NEW."id"),
      max_attempts := 5,
      job_key := 'poll_results:' || NEW."id"::text
    );
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "occurrences_store_poll_results"
BEFORE UPDATE OF "closed_at" ON "occurrences"
FOR EACH ROW WHEN (OLD."closed_at" IS DISTINCT FROM NEW."closed_at")
EXECUTE FUNCTION "occurrences_store_poll_results"();

-- Broadcasts closed before this migration: store their results too (on a database the job queue
-- has not been installed on yet there are none; the queue's schema comes after the migrations).
DO $$
BEGIN
  IF to_regnamespace('graphile_worker') IS NOT NULL THEN
    PERFORM graphile_worker.add_job(
      'store_poll_results',
      json_build_object('occurrenceId', o."id"),
      max_attempts := 5,
      job_key := 'poll_results:' || o."id"::text
    )
    FROM "occurrences" o JOIN "checkins" c ON c."id" = o."checkin_id" AND c."kind" = 'poll'
    WHERE o."closed_at" IS NOT NULL;
  END IF;
END;
$$;
