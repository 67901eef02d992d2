-- AlterTable
ALTER TABLE "questions" ADD COLUMN     "is_blocker" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "answers" ADD COLUMN     "blocker_resolved_at" TIMESTAMPTZ(3),
ADD COLUMN     "blocker_resolved_by_id" INTEGER;

-- AddForeignKey
ALTER TABLE "answers" ADD CONSTRAINT "answers_blocker_resolved_by_id_fkey" FOREIGN KEY ("blocker_resolved_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Full-text search over answer text (dashboard report search). Prisma's schema language cannot
-- express an expression index, so it is written by hand here; queries must use exactly
-- to_tsvector('english', "text") to hit it (lib/domain/report-search.ts).
CREATE INDEX "answers_text_fts_idx" ON "answers" USING GIN (to_tsvector('english', "text"));

-- Blocker questions of a team (small partial index for the blockers view).
CREATE INDEX "questions_blocker_idx" ON "questions" ("team_id") WHERE "is_blocker";
