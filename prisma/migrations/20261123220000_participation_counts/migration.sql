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
-- count it again; closing an occurrence enqueues it too. Row changes are seen per statement
-- (transition tables), and an UPDATE counts only when the (occurrence, user) pairs it concerns
-- differ before and after it (an edited answer or a reminder timestamp changes nothing). The store
-- job reads counts_version in the same statement (snapshot) as the counts, so a change committed
-- meanwhile leaves the stored row one version behind: never used, stored again by that change's job.
CREATE FUNCTION "participation_counts_invalidate"(ids INTEGER[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  changed INTEGER;
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
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

-- Members, submitted reports, votes: the occurrences of the (occurrence, user) pairs that a
-- statement added or removed (for reports only submitted ones count).
CREATE FUNCTION "pairs_invalidate_participation_counts"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  submitted_only BOOLEAN := TG_TABLE_NAME = 'reports';
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "participation_counts_invalidate"(ARRAY(
      SELECT DISTINCT n."occurrence_id" FROM new_rows n
      WHERE n."occurrence_id" IS NOT NULL AND (NOT submitted_only OR to_jsonb(n) ->> 'status' = 'submitted')));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "participation_counts_invalidate"(ARRAY(
      SELECT DISTINCT o."occurrence_id" FROM old_rows o
      WHERE o."occurrence_id" IS NOT NULL AND (NOT submitted_only OR to_jsonb(o) ->> 'status' = 'submitted')));
  ELSE
    PERFORM "participation_counts_invalidate"(ARRAY(
      SELECT DISTINCT d.occurrence_id FROM (
        (SELECT o."occurrence_id", o."user_id" FROM old_rows o
          WHERE o."occurrence_id" IS NOT NULL AND (NOT submitted_only OR to_jsonb(o) ->> 'status' = 'submitted')
         EXCEPT ALL
         SELECT n."occurrence_id", n."user_id" FROM new_rows n
          WHERE n."occurrence_id" IS NOT NULL AND (NOT submitted_only OR to_jsonb(n) ->> 'status' = 'submitted'))
        UNION ALL
        (SELECT n."occurrence_id", n."user_id" FROM new_rows n
          WHERE n."occurrence_id" IS NOT NULL AND (NOT submitted_only OR to_jsonb(n) ->> 'status' = 'submitted')
         EXCEPT ALL
         SELECT o."occurrence_id", o."user_id" FROM old_rows o
          WHERE o."occurrence_id" IS NOT NULL AND (NOT submitted_only OR to_jsonb(o) ->> 'status' = 'submitted'))
      ) d));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "occurrence_members_insert_participation_counts" AFTER INSERT ON "occurrence_members"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "pairs_invalidate_participation_counts"();
CREATE TRIGGER "occurrence_members_update_participation_counts" AFTER UPDATE ON "occurrence_members"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "pairs_invalidate_participation_counts"();
CREATE TRIGGER "occurrence_members_delete_participation_counts" AFTER DELETE ON "occurrence_members"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "pairs_invalidate_participation_counts"();

CREATE TRIGGER "reports_insert_participation_counts" AFTER INSERT ON "reports"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "pairs_invalidate_participation_counts"();
CREATE TRIGGER "reports_update_participation_counts" AFTER UPDATE ON "reports"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "pairs_invalidate_participation_counts"();
CREATE TRIGGER "reports_delete_participation_counts" AFTER DELETE ON "reports"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "pairs_invalidate_participation_counts"();

CREATE TRIGGER "votes_insert_participation_counts" AFTER INSERT ON "votes"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "pairs_invalidate_participation_counts"();
CREATE TRIGGER "votes_update_participation_counts" AFTER UPDATE ON "votes"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "pairs_invalidate_participation_counts"();
CREATE TRIGGER "votes_delete_participation_counts" AFTER DELETE ON "votes"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "pairs_invalidate_participation_counts"();

-- Absences: the closed occurrences that had the absent member on a date the absence covered
-- before or after the statement (only a member who did not respond is counted on leave).
CREATE FUNCTION "absences_invalidate_participation_counts"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "participation_counts_invalidate"(ARRAY(
      SELECT DISTINCT om."occurrence_id" FROM new_rows a
      JOIN "occurrence_members" om ON om."user_id" = a."user_id"
      JOIN "occurrences" o ON o."id" = om."occurrence_id" AND o."date" BETWEEN a."start_date" AND a."end_date" AND o."closed_at" IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "participation_counts_invalidate"(ARRAY(
      SELECT DISTINCT om."occurrence_id" FROM old_rows a
      JOIN "occurrence_members" om ON om."user_id" = a."user_id"
      JOIN "occurrences" o ON o."id" = om."occurrence_id" AND o."date" BETWEEN a."start_date" AND a."end_date" AND o."closed_at" IS NOT NULL));
  ELSE
    PERFORM "participation_counts_invalidate"(ARRAY(
      SELECT DISTINCT om."occurrence_id" FROM (
        (SELECT o."user_id", o."start_date", o."end_date" FROM old_rows o
         EXCEPT ALL SELECT n."user_id", n."start_date", n."end_date" FROM new_rows n)
        UNION ALL
        (SELECT n."user_id", n."start_date", n."end_date" FROM new_rows n
         EXCEPT ALL SELECT o."user_id", o."start_date", o."end_date" FROM old_rows o)
      ) a
      JOIN "occurrence_members" om ON om."user_id" = a."user_id"
      JOIN "occurrences" o ON o."id" = om."occurrence_id" AND o."date" BETWEEN a."start_date" AND a."end_date" AND o."closed_at" IS NOT NULL));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "absences_insert_participation_counts" AFTER INSERT ON "absences"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "absences_invalidate_participation_counts"();
CREATE TRIGGER "absences_update_participation_counts" AFTER UPDATE ON "absences"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "absences_invalidate_participation_counts"();
CREATE TRIGGER "absences_delete_participation_counts" AFTER DELETE ON "absences"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "absences_invalidate_participation_counts"();

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
