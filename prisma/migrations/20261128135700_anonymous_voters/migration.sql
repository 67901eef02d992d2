-- AlterTable
ALTER TABLE "occurrence_members" ADD COLUMN     "voted" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "votes" ADD COLUMN     "voter_hash" TEXT,
ALTER COLUMN "user_id" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "votes_occurrence_id_voter_hash_idx" ON "votes"("occurrence_id", "voter_hash");

-- Issue 45: voters of anonymous polls are not stored with their vote. Who voted moves to
-- occurrence_members.voted (for every poll); each vote of an anonymous poll then keeps only a keyed
-- hash of its voter (HMAC with the secret app_secrets 'voter_key', created by the application),
-- written by the one-time job `anonymise_poll_voters` (lib/domain/voter-hash.ts), enqueued here.
UPDATE "occurrence_members" om SET "voted" = true
WHERE EXISTS (SELECT 1 FROM "votes" v WHERE v."occurrence_id" = om."occurrence_id" AND v."user_id" = om."user_id");
SELECT "checkin_enqueue_job"('anonymise_poll_voters', '{}'::json, max_attempts := 25, job_key := 'anonymise_poll_voters');
