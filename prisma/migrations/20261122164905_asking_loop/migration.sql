-- CreateEnum
CREATE TYPE "ExcuseReason" AS ENUM ('vacation', 'out_of_office');

-- AlterEnum
ALTER TYPE "ChatMessageKind" ADD VALUE IF NOT EXISTS 'poll_results';

-- AlterEnum
ALTER TYPE "OccurrenceTrigger" ADD VALUE IF NOT EXISTS 'adhoc';

-- AlterTable
ALTER TABLE "checkins" ADD COLUMN     "late_answer_days" INTEGER NOT NULL DEFAULT 7,
ADD COLUMN     "reminder_after_minutes" INTEGER NOT NULL DEFAULT 60,
ADD COLUMN     "reminder_count" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "response_window_minutes" INTEGER,
ADD COLUMN     "share_results" BOOLEAN NOT NULL DEFAULT false,
ALTER COLUMN "wait_time" SET DEFAULT 0;

-- AlterTable
ALTER TABLE "occurrence_members" ADD COLUMN     "due_at" TIMESTAMPTZ(3),
ADD COLUMN     "excused" "ExcuseReason",
ADD COLUMN     "missed_at" TIMESTAMPTZ(3),
ADD COLUMN     "reminded_at" TIMESTAMPTZ(3)[] DEFAULT ARRAY[]::TIMESTAMPTZ(3)[];

-- CreateTable
CREATE TABLE "team_holidays" (
    "id" SERIAL NOT NULL,
    "team_id" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "team_holidays_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "team_holidays_team_id_date_key" ON "team_holidays"("team_id", "date");

-- CreateIndex
CREATE INDEX "occurrences_closes_at_idx" ON "occurrences"("closes_at");

-- CreateIndex
CREATE INDEX "occurrence_members_due_at_idx" ON "occurrence_members"("due_at");

-- AddForeignKey
ALTER TABLE "team_holidays" ADD CONSTRAINT "team_holidays_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill (issue 10): members recorded without an asking time were the ones on leave that day.
UPDATE "occurrence_members" om SET "excused" = (
  SELECT a."kind"::text::"ExcuseReason" FROM "absences" a JOIN "occurrences" o ON o."id" = om."occurrence_id"
  WHERE a."user_id" = om."user_id" AND a."start_date" <= o."date" AND a."end_date" >= o."date"
  ORDER BY a."id" LIMIT 1)
WHERE om."asked_at" IS NULL;
UPDATE "occurrence_members" SET "due_at" = "asked_at" WHERE "due_at" IS NULL AND "asked_at" IS NOT NULL;

-- Backfill: standup runs get the default response window (24 h); runs and broadcasts whose window
-- already ended count as closed, so the close job never replays history (no results, no events).
UPDATE "occurrences" o SET "closes_at" = o."scheduled_at" + interval '24 hours'
FROM "checkins" c WHERE c."id" = o."checkin_id" AND c."kind" = 'standup' AND o."closes_at" IS NULL;
UPDATE "occurrences" SET "closed_at" = "closes_at" WHERE "closed_at" IS NULL AND "closes_at" < now();

-- wait_time semantics (spec §2.2/§2.8, issue 10): until now every standup was asked on its
-- schedule whatever wait_time said; keep that (0 minutes) so null from now on means "only when started".
UPDATE "checkins" SET "wait_time" = 0 WHERE "kind" = 'standup' AND "wait_time" IS NULL;
