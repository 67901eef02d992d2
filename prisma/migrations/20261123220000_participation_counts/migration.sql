-- AlterTable
ALTER TABLE "occurrences" ADD COLUMN     "counts_version" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "participation_counts" (
    "team_id" INTEGER NOT NULL,
    "occurrence_id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "expected" INTEGER NOT NULL,
    "responded" INTEGER NOT NULL,
    "vacation" INTEGER NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "participation_counts_pkey" PRIMARY KEY ("team_id","occurrence_id")
);

-- AddForeignKey
ALTER TABLE "participation_counts" ADD CONSTRAINT "participation_counts_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "participation_counts" ADD CONSTRAINT "participation_counts_team_id_occurrence_id_fkey" FOREIGN KEY ("team_id", "occurrence_id") REFERENCES "occurrences"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Stored participation counts (issue 14): the participation pages and dashboards read a closed
-- occurrence's counts (expected, responded, vacation; lib/domain/participation.ts) from
-- participation_counts while its version equals the occurrence's counts_version, and count it live
-- otherwise. The counts depend on the occurrence's member snapshot, its responders (submitted
-- reports; votes for polls), its date and the absences of its members on that date. These
-- triggers bump counts_version of every closed occurrence whose counts a change may alter, in the
-- transaction of that change, and enqueue `store_participation_counts` (lib/jobs/tasks.ts) to
-- count it again; closing an occurrence enqueues it too. They are row triggers whose WHEN clause
-- lets through only changes to what the counts read, so the frequent writes that change nothing
-- there (an edited report, a reminder or "asked" timestamp, an absence's note) call no function
-- (statement triggers over transition tables cost about 0.3 ms per single-row statement). The
-- store job reads counts_version in the same statement (snapshot) as the counts, so a change
-- committed meanwhile leaves the stored row one version behind: never used, stored again by that
-- change's job.
CREATE FUNCTION "participation_counts_invalidate"(ids INTEGER[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  changed INTEGER;
BEGIN
  FOR changed IN
    UPDATE "occurrences" o SET "counts_version" = o."counts_version" + 1
    WHERE o."id" = ANY(ids) AND o."closed_at" IS NOT NULL
    RETURNING o."id"
  LOOP
    PERFORM graphile_worker.add_job(
      'store_participation_counts',
      json_build_object('occurrenceId', changed),
      run_at := now() + interval '2 seconds',
      max_attempts := 5,
      job_key := 'participation_counts:' || changed::text
    );
  END LOOP;
END;
$$;

-- A member of a snapshot, a submitted report or a vote changed: its occurrence (both, when moved).
CREATE FUNCTION "occurrence_row_invalidate_participation_counts"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM "participation_counts_invalidate"(ARRAY[OLD."occurrence_id"]);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "participation_counts_invalidate"(ARRAY[OLD."occurrence_id", NEW."occurrence_id"]);
  ELSE
    PERFORM "participation_counts_invalidate"(ARRAY[NEW."occurrence_id"]);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "occurrence_members_invalidate_participation_counts"
AFTER INSERT OR DELETE ON "occurrence_members"
FOR EACH ROW EXECUTE FUNCTION "occurrence_row_invalidate_participation_counts"();

CREATE TRIGGER "occurrence_members_invalidate_participation_counts_on_update"
AFTER UPDATE ON "occurrence_members"
FOR EACH ROW WHEN (OLD."occurrence_id" IS DISTINCT FROM NEW."occurrence_id" OR OLD."user_id" IS DISTINCT FROM NEW."user_id")
EXECUTE FUNCTION "occurrence_row_invalidate_participation_counts"();

CREATE TRIGGER "votes_invalidate_participation_counts"
AFTER INSERT OR DELETE ON "votes"
FOR EACH ROW EXECUTE FUNCTION "occurrence_row_invalidate_participation_counts"();

CREATE TRIGGER "votes_invalidate_participation_counts_on_update"
AFTER UPDATE ON "votes"
FOR EACH ROW WHEN (OLD."occurrence_id" IS DISTINCT FROM NEW."occurrence_id" OR OLD."user_id" IS DISTINCT FROM NEW."user_id")
EXECUTE FUNCTION "occurrence_row_invalidate_participation_counts"();

-- Reports count only when submitted.
CREATE TRIGGER "reports_insert_invalidate_participation_counts"
AFTER INSERT ON "reports"
FOR EACH ROW WHEN (NEW."status" = 'submitted' AND NEW."occurrence_id" IS NOT NULL)
EXECUTE FUNCTION "occurrence_row_invalidate_participation_counts"();

CREATE TRIGGER "reports_delete_invalidate_participation_counts"
AFTER DELETE ON "reports"
FOR EACH ROW WHEN (OLD."status" = 'submitted' AND OLD."occurrence_id" IS NOT NULL)
EXECUTE FUNCTION "occurrence_row_invalidate_participation_counts"();

CREATE TRIGGER "reports_update_invalidate_participation_counts"
AFTER UPDATE ON "reports"
FOR EACH ROW WHEN ((OLD."status" = 'submitted') IS DISTINCT FROM (NEW."status" = 'submitted')
  OR (NEW."status" = 'submitted' AND (OLD."occurrence_id" IS DISTINCT FROM NEW."occurrence_id" OR OLD."user_id" IS DISTINCT FROM NEW."user_id")))
EXECUTE FUNCTION "occurrence_row_invalidate_participation_counts"();

-- An absence: the closed occurrences that had the absent member on a date it covered before or
-- after the change (only a member who did not respond is counted on leave).
CREATE FUNCTION "absences_invalidate_participation_counts"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM "participation_counts_invalidate"(ARRAY(
      SELECT om."occurrence_id" FROM "occurrence_members" om
      JOIN "occurrences" o ON o."id" = om."occurrence_id"
      WHERE om."user_id" = OLD."user_id" AND o."date" BETWEEN OLD."start_date" AND OLD."end_date" AND o."closed_at" IS NOT NULL));
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM "participation_counts_invalidate"(ARRAY(
      SELECT om."occurrence_id" FROM "occurrence_members" om
      JOIN "occurrences" o ON o."id" = om."occurrence_id"
      WHERE om."user_id" = NEW."user_id" AND o."date" BETWEEN NEW."start_date" AND NEW."end_date" AND o."closed_at" IS NOT NULL));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "absences_invalidate_participation_counts"
AFTER INSERT OR DELETE ON "absences"
FOR EACH ROW EXECUTE FUNCTION "absences_invalidate_participation_counts"();

CREATE TRIGGER "absences_invalidate_participation_counts_on_update"
AFTER UPDATE ON "absences"
FOR EACH ROW WHEN (OLD."user_id" IS DISTINCT FROM NEW."user_id" OR OLD."start_date" IS DISTINCT FROM NEW."start_date"
  OR OLD."end_date" IS DISTINCT FROM NEW."end_date")
EXECUTE FUNCTION "absences_invalidate_participation_counts"();

-- Closing (or re-opening) an occurrence, or moving it to another date (absences are matched by
-- date): a new version, and a closed occurrence's counts are stored; so are those of an occurrence
-- written already closed (the demo seed, an import).
CREATE FUNCTION "occurrences_store_participation_counts"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    NEW."counts_version" := OLD."counts_version" + 1;
  END IF;
  IF NEW."closed_at" IS NOT NULL THEN
    PERFORM graphile_worker.add_job(
      'store_participation_counts',
      json_build_object('occurrenceId', NEW."id"),
      max_attempts := 5,
      job_key := 'participation_counts:' || NEW."id"::text
    );
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "occurrences_store_participation_counts"
BEFORE UPDATE OF "closed_at", "date" ON "occurrences"
FOR EACH ROW WHEN (OLD."closed_at" IS DISTINCT FROM NEW."closed_at" OR OLD."date" IS DISTINCT FROM NEW."date")
EXECUTE FUNCTION "occurrences_store_participation_counts"();

CREATE TRIGGER "occurrences_insert_store_participation_counts"
BEFORE INSERT ON "occurrences"
FOR EACH ROW WHEN (NEW."closed_at" IS NOT NULL)
EXECUTE FUNCTION "occurrences_store_participation_counts"();

-- Occurrences closed before this migration: store their counts too (on a database the job queue
-- has not been installed on yet there are none; the queue's schema comes after the migrations).
DO $$
BEGIN
  IF to_regnamespace('graphile_worker') IS NOT NULL THEN
    PERFORM graphile_worker.add_job(
      'store_participation_counts',
      json_build_object('occurrenceId', o."id"),
      max_attempts := 5,
      job_key := 'participation_counts:' || o."id"::text
    )
    FROM "occurrences" o
    WHERE o."closed_at" IS NOT NULL;
  END IF;
END;
$$;
