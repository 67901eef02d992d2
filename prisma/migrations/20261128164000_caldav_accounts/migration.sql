-- Calendars (issue 48): CalDAV accounts beside ICS addresses, sealed secrets, the busy all-day option.
-- Existing plain ICS addresses are sealed (and their display_url filled) by sealPlainFeedUrls
-- (lib/domain/calendar-feeds.ts) at the first refresh: SQL cannot encrypt with the service secret.

-- CreateEnum
CREATE TYPE "CalendarFeedProtocol" AS ENUM ('ics', 'caldav');

-- AlterTable
ALTER TABLE "teams" ADD COLUMN     "calendar_busy_all_day" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "calendar_feeds" ADD COLUMN     "display_url" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "password" TEXT,
ADD COLUMN     "protocol" "CalendarFeedProtocol" NOT NULL DEFAULT 'ics',
ADD COLUMN     "username" TEXT;
