-- AlterTable
ALTER TABLE "checkins" ADD COLUMN     "allow_anonymous_reports" BOOLEAN NOT NULL DEFAULT false;
