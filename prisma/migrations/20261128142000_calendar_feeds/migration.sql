-- CreateEnum
CREATE TYPE "CalendarFeedKind" AS ENUM ('absences', 'holidays');

-- AlterTable
ALTER TABLE "teams" ADD COLUMN     "calendar_absence_words" TEXT[] DEFAULT ARRAY['vacation', 'OOO', 'out of office', 'Urlaub', 'congé', 'holiday']::TEXT[];

-- AlterTable
ALTER TABLE "absences" ADD COLUMN     "calendar_feed_id" INTEGER,
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'manual';

-- AlterTable
ALTER TABLE "team_holidays" ADD COLUMN     "calendar_feed_id" INTEGER;

-- CreateTable
CREATE TABLE "calendar_feeds" (
    "id" SERIAL NOT NULL,
    "team_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "kind" "CalendarFeedKind" NOT NULL,
    "url" TEXT NOT NULL,
    "etag" TEXT,
    "last_fetched_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "calendar_feeds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "calendar_feeds_team_id_user_id_idx" ON "calendar_feeds"("team_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "calendar_feeds_team_id_id_key" ON "calendar_feeds"("team_id", "id");

-- AddForeignKey
ALTER TABLE "absences" ADD CONSTRAINT "absences_team_id_calendar_feed_id_fkey" FOREIGN KEY ("team_id", "calendar_feed_id") REFERENCES "calendar_feeds"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "team_holidays" ADD CONSTRAINT "team_holidays_team_id_calendar_feed_id_fkey" FOREIGN KEY ("team_id", "calendar_feed_id") REFERENCES "calendar_feeds"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_team_id_user_id_fkey" FOREIGN KEY ("team_id", "user_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
