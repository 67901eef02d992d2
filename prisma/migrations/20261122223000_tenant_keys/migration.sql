-- Tenant keys (issue 14, docs/scaling.md §2 "Sharding by team"): every unique constraint and
-- foreign key of a tenant table now includes team_id, checked by tests/schema-tenancy.test.ts.
--   * UNIQUE (team_id, id) on each referenced table (users, channels, checkins, questions,
--     occurrences, reports, webhook_endpoints), created before the foreign keys that use it;
--   * each of the 36 foreign keys (x_id) -> parent(id) becomes (team_id, x_id) -> parent(team_id, id);
--   * each unique (a[, b]) becomes (team_id, a[, b]): users/channels chat_id, occurrences
--     (checkin_id, date), answers (report_id, question_id), categories (question_id, name),
--     occurrence_summaries occurrence_id, chat_messages ts, webhook_deliveries message_id.
--   api_keys.hash and auth_tokens.hash stay globally unique: they are looked up before the team is
--   known (GLOBAL_BY_DESIGN in the test).
-- Generated with ../shared/tools/prisma-sql-diff from the previous schema, then edited by hand:
--   1. the guard below (not from Prisma): the new foreign keys would reject a child row whose
--      team_id differs from its parent's; the guard lists every such pair and stops the migration
--      (nothing is changed) rather than failing on the first constraint. No value is certainly
--      right for such a row, so none is "fixed" here.
--   2. the nine ON DELETE SET NULL foreign keys use PostgreSQL 15's column list, SET NULL ("x_id"),
--      so that deleting the parent nulls only x_id and keeps team_id (a plain SET NULL would null
--      team_id too, and fail on its NOT NULL). Prisma cannot express the column list: the schema
--      says onDelete: SetNull, the database does SET NULL ("x_id"). Comparing the constraints
--      (pg_get_constraintdef) of a database built by the migrations with one built from
--      schema.prisma shows exactly these nine as different (and no other difference from this
--      migration).
-- Locks: one transaction; every tenant table stays locked (ACCESS EXCLUSIVE for the dropped
-- constraints) until it commits, while the indexes are built and the foreign keys validated: stop
-- the service or accept the pause (15.6 s on 1.08 M reports / 3.18 M answers, docs/scaling.md).

-- Guard: child rows whose team_id differs from their parent's.
DO $$
DECLARE
  fk record;
  bad bigint;
  report text := '';
BEGIN
  FOR fk IN SELECT * FROM (VALUES
    ('channel_members', 'channel_id', 'channels'),
    ('channel_members', 'user_id', 'users'),
    ('checkins', 'owner_id', 'users'),
    ('checkins', 'broadcast_channel_id', 'channels'),
    ('checkins', 'sync_channel_id', 'channels'),
    ('questions', 'checkin_id', 'checkins'),
    ('checkin_members', 'checkin_id', 'checkins'),
    ('checkin_members', 'user_id', 'users'),
    ('occurrences', 'checkin_id', 'checkins'),
    ('occurrence_members', 'occurrence_id', 'occurrences'),
    ('occurrence_members', 'user_id', 'users'),
    ('reports', 'checkin_id', 'checkins'),
    ('reports', 'occurrence_id', 'occurrences'),
    ('reports', 'user_id', 'users'),
    ('answers', 'report_id', 'reports'),
    ('answers', 'question_id', 'questions'),
    ('answers', 'blocker_resolved_by_id', 'users'),
    ('votes', 'occurrence_id', 'occurrences'),
    ('votes', 'question_id', 'questions'),
    ('votes', 'user_id', 'users'),
    ('categorizations', 'occurrence_id', 'occurrences'),
    ('categorizations', 'question_id', 'questions'),
    ('categories', 'question_id', 'questions'),
    ('occurrence_summaries', 'checkin_id', 'checkins'),
    ('occurrence_summaries', 'occurrence_id', 'occurrences'),
    ('absences', 'user_id', 'users'),
    ('api_keys', 'user_id', 'users'),
    ('idempotency_records', 'user_id', 'users'),
    ('chat_messages', 'channel_id', 'channels'),
    ('chat_messages', 'recipient_id', 'users'),
    ('chat_messages', 'checkin_id', 'checkins'),
    ('chat_messages', 'occurrence_id', 'occurrences'),
    ('chat_messages', 'report_id', 'reports'),
    ('webhook_deliveries', 'endpoint_id', 'webhook_endpoints'),
    ('auth_tokens', 'user_id', 'users'),
    ('audit_entries', 'actor_id', 'users')
  ) AS t(child, col, parent) LOOP
    EXECUTE format('SELECT count(*) FROM %I c JOIN %I p ON p.id = c.%I WHERE p.team_id <> c.team_id',
                   fk.child, fk.parent, fk.col) INTO bad;
    IF bad > 0 THEN
      report := report || format(E'\n  %s.%s -> %s: %s row(s)', fk.child, fk.col, fk.parent, bad);
    END IF;
  END LOOP;
  IF report <> '' THEN
    RAISE EXCEPTION 'tenant_keys: rows whose team_id differs from their parent''s (fix them, then migrate again):%', report;
  END IF;
END $$;

-- DropForeignKey
ALTER TABLE "channel_members" DROP CONSTRAINT "channel_members_channel_id_fkey";

-- DropForeignKey
ALTER TABLE "channel_members" DROP CONSTRAINT "channel_members_user_id_fkey";

-- DropForeignKey
ALTER TABLE "checkins" DROP CONSTRAINT "checkins_owner_id_fkey";

-- DropForeignKey
ALTER TABLE "checkins" DROP CONSTRAINT "checkins_broadcast_channel_id_fkey";

-- DropForeignKey
ALTER TABLE "checkins" DROP CONSTRAINT "checkins_sync_channel_id_fkey";

-- DropForeignKey
ALTER TABLE "questions" DROP CONSTRAINT "questions_checkin_id_fkey";

-- DropForeignKey
ALTER TABLE "checkin_members" DROP CONSTRAINT "checkin_members_checkin_id_fkey";

-- DropForeignKey
ALTER TABLE "checkin_members" DROP CONSTRAINT "checkin_members_user_id_fkey";

-- DropForeignKey
ALTER TABLE "occurrences" DROP CONSTRAINT "occurrences_checkin_id_fkey";

-- DropForeignKey
ALTER TABLE "occurrence_members" DROP CONSTRAINT "occurrence_members_occurrence_id_fkey";

-- DropForeignKey
ALTER TABLE "occurrence_members" DROP CONSTRAINT "occurrence_members_user_id_fkey";

-- DropForeignKey
ALTER TABLE "reports" DROP CONSTRAINT "reports_checkin_id_fkey";

-- DropForeignKey
ALTER TABLE "reports" DROP CONSTRAINT "reports_occurrence_id_fkey";

-- DropForeignKey
ALTER TABLE "reports" DROP CONSTRAINT "reports_user_id_fkey";

-- DropForeignKey
ALTER TABLE "answers" DROP CONSTRAINT "answers_report_id_fkey";

-- DropForeignKey
ALTER TABLE "answers" DROP CONSTRAINT "answers_question_id_fkey";

-- DropForeignKey
ALTER TABLE "answers" DROP CONSTRAINT "answers_blocker_resolved_by_id_fkey";

-- DropForeignKey
ALTER TABLE "votes" DROP CONSTRAINT "votes_occurrence_id_fkey";

-- DropForeignKey
ALTER TABLE "votes" DROP CONSTRAINT "votes_question_id_fkey";

-- DropForeignKey
ALTER TABLE "votes" DROP CONSTRAINT "votes_user_id_fkey";

-- DropForeignKey
ALTER TABLE "categorizations" DROP CONSTRAINT "categorizations_occurrence_id_fkey";

-- DropForeignKey
ALTER TABLE "categorizations" DROP CONSTRAINT "categorizations_question_id_fkey";

-- DropForeignKey
ALTER TABLE "categories" DROP CONSTRAINT "categories_question_id_fkey";

-- DropForeignKey
ALTER TABLE "occurrence_summaries" DROP CONSTRAINT "occurrence_summaries_checkin_id_fkey";

-- DropForeignKey
ALTER TABLE "occurrence_summaries" DROP CONSTRAINT "occurrence_summaries_occurrence_id_fkey";

-- DropForeignKey
ALTER TABLE "absences" DROP CONSTRAINT "absences_user_id_fkey";

-- DropForeignKey
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_user_id_fkey";

-- DropForeignKey
ALTER TABLE "idempotency_records" DROP CONSTRAINT "idempotency_records_user_id_fkey";

-- DropForeignKey
ALTER TABLE "chat_messages" DROP CONSTRAINT "chat_messages_channel_id_fkey";

-- DropForeignKey
ALTER TABLE "chat_messages" DROP CONSTRAINT "chat_messages_recipient_id_fkey";

-- DropForeignKey
ALTER TABLE "chat_messages" DROP CONSTRAINT "chat_messages_checkin_id_fkey";

-- DropForeignKey
ALTER TABLE "chat_messages" DROP CONSTRAINT "chat_messages_occurrence_id_fkey";

-- DropForeignKey
ALTER TABLE "chat_messages" DROP CONSTRAINT "chat_messages_report_id_fkey";

-- DropForeignKey
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_endpoint_id_fkey";

-- DropForeignKey
ALTER TABLE "auth_tokens" DROP CONSTRAINT "auth_tokens_user_id_fkey";

-- DropForeignKey
ALTER TABLE "audit_entries" DROP CONSTRAINT "audit_entries_actor_id_fkey";

-- DropIndex
DROP INDEX "users_chat_id_key";

-- DropIndex
DROP INDEX "channels_chat_id_key";

-- DropIndex
DROP INDEX "occurrences_checkin_id_date_key";

-- DropIndex
DROP INDEX "answers_report_id_question_id_key";

-- DropIndex
DROP INDEX "categories_question_id_name_key";

-- DropIndex
DROP INDEX "occurrence_summaries_occurrence_id_key";

-- DropIndex
DROP INDEX "chat_messages_ts_key";

-- DropIndex
DROP INDEX "webhook_deliveries_message_id_key";

-- CreateIndex
CREATE UNIQUE INDEX "users_team_id_id_key" ON "users"("team_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "users_team_id_chat_id_key" ON "users"("team_id", "chat_id");

-- CreateIndex
CREATE UNIQUE INDEX "channels_team_id_id_key" ON "channels"("team_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "channels_team_id_chat_id_key" ON "channels"("team_id", "chat_id");

-- CreateIndex
CREATE UNIQUE INDEX "checkins_team_id_id_key" ON "checkins"("team_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "questions_team_id_id_key" ON "questions"("team_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "occurrences_team_id_id_key" ON "occurrences"("team_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "occurrences_team_id_checkin_id_date_key" ON "occurrences"("team_id", "checkin_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "reports_team_id_id_key" ON "reports"("team_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "answers_team_id_report_id_question_id_key" ON "answers"("team_id", "report_id", "question_id");

-- CreateIndex
CREATE UNIQUE INDEX "categories_team_id_question_id_name_key" ON "categories"("team_id", "question_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "occurrence_summaries_team_id_occurrence_id_key" ON "occurrence_summaries"("team_id", "occurrence_id");

-- CreateIndex
CREATE UNIQUE INDEX "chat_messages_team_id_ts_key" ON "chat_messages"("team_id", "ts");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_endpoints_team_id_id_key" ON "webhook_endpoints"("team_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_team_id_message_id_key" ON "webhook_deliveries"("team_id", "message_id");

-- AddForeignKey
ALTER TABLE "channel_members" ADD CONSTRAINT "channel_members_team_id_channel_id_fkey" FOREIGN KEY ("team_id", "channel_id") REFERENCES "channels"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channel_members" ADD CONSTRAINT "channel_members_team_id_user_id_fkey" FOREIGN KEY ("team_id", "user_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkins" ADD CONSTRAINT "checkins_team_id_owner_id_fkey" FOREIGN KEY ("team_id", "owner_id") REFERENCES "users"("team_id", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkins" ADD CONSTRAINT "checkins_team_id_broadcast_channel_id_fkey" FOREIGN KEY ("team_id", "broadcast_channel_id") REFERENCES "channels"("team_id", "id") ON DELETE SET NULL ("broadcast_channel_id") ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkins" ADD CONSTRAINT "checkins_team_id_sync_channel_id_fkey" FOREIGN KEY ("team_id", "sync_channel_id") REFERENCES "channels"("team_id", "id") ON DELETE SET NULL ("sync_channel_id") ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "questions" ADD CONSTRAINT "questions_team_id_checkin_id_fkey" FOREIGN KEY ("team_id", "checkin_id") REFERENCES "checkins"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkin_members" ADD CONSTRAINT "checkin_members_team_id_checkin_id_fkey" FOREIGN KEY ("team_id", "checkin_id") REFERENCES "checkins"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "checkin_members" ADD CONSTRAINT "checkin_members_team_id_user_id_fkey" FOREIGN KEY ("team_id", "user_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "occurrences" ADD CONSTRAINT "occurrences_team_id_checkin_id_fkey" FOREIGN KEY ("team_id", "checkin_id") REFERENCES "checkins"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "occurrence_members" ADD CONSTRAINT "occurrence_members_team_id_occurrence_id_fkey" FOREIGN KEY ("team_id", "occurrence_id") REFERENCES "occurrences"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "occurrence_members" ADD CONSTRAINT "occurrence_members_team_id_user_id_fkey" FOREIGN KEY ("team_id", "user_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_team_id_checkin_id_fkey" FOREIGN KEY ("team_id", "checkin_id") REFERENCES "checkins"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_team_id_occurrence_id_fkey" FOREIGN KEY ("team_id", "occurrence_id") REFERENCES "occurrences"("team_id", "id") ON DELETE SET NULL ("occurrence_id") ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_team_id_user_id_fkey" FOREIGN KEY ("team_id", "user_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "answers" ADD CONSTRAINT "answers_team_id_report_id_fkey" FOREIGN KEY ("team_id", "report_id") REFERENCES "reports"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "answers" ADD CONSTRAINT "answers_team_id_question_id_fkey" FOREIGN KEY ("team_id", "question_id") REFERENCES "questions"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "answers" ADD CONSTRAINT "answers_team_id_blocker_resolved_by_id_fkey" FOREIGN KEY ("team_id", "blocker_resolved_by_id") REFERENCES "users"("team_id", "id") ON DELETE SET NULL ("blocker_resolved_by_id") ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "votes" ADD CONSTRAINT "votes_team_id_occurrence_id_fkey" FOREIGN KEY ("team_id", "occurrence_id") REFERENCES "occurrences"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "votes" ADD CONSTRAINT "votes_team_id_question_id_fkey" FOREIGN KEY ("team_id", "question_id") REFERENCES "questions"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "votes" ADD CONSTRAINT "votes_team_id_user_id_fkey" FOREIGN KEY ("team_id", "user_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "categorizations" ADD CONSTRAINT "categorizations_team_id_occurrence_id_fkey" FOREIGN KEY ("team_id", "occurrence_id") REFERENCES "occurrences"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "categorizations" ADD CONSTRAINT "categorizations_team_id_question_id_fkey" FOREIGN KEY ("team_id", "question_id") REFERENCES "questions"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "categories" ADD CONSTRAINT "categories_team_id_question_id_fkey" FOREIGN KEY ("team_id", "question_id") REFERENCES "questions"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "occurrence_summaries" ADD CONSTRAINT "occurrence_summaries_team_id_checkin_id_fkey" FOREIGN KEY ("team_id", "checkin_id") REFERENCES "checkins"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "occurrence_summaries" ADD CONSTRAINT "occurrence_summaries_team_id_occurrence_id_fkey" FOREIGN KEY ("team_id", "occurrence_id") REFERENCES "occurrences"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "absences" ADD CONSTRAINT "absences_team_id_user_id_fkey" FOREIGN KEY ("team_id", "user_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_team_id_user_id_fkey" FOREIGN KEY ("team_id", "user_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_team_id_user_id_fkey" FOREIGN KEY ("team_id", "user_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_team_id_channel_id_fkey" FOREIGN KEY ("team_id", "channel_id") REFERENCES "channels"("team_id", "id") ON DELETE SET NULL ("channel_id") ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_team_id_recipient_id_fkey" FOREIGN KEY ("team_id", "recipient_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_team_id_checkin_id_fkey" FOREIGN KEY ("team_id", "checkin_id") REFERENCES "checkins"("team_id", "id") ON DELETE SET NULL ("checkin_id") ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_team_id_occurrence_id_fkey" FOREIGN KEY ("team_id", "occurrence_id") REFERENCES "occurrences"("team_id", "id") ON DELETE SET NULL ("occurrence_id") ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_team_id_report_id_fkey" FOREIGN KEY ("team_id", "report_id") REFERENCES "reports"("team_id", "id") ON DELETE SET NULL ("report_id") ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_team_id_endpoint_id_fkey" FOREIGN KEY ("team_id", "endpoint_id") REFERENCES "webhook_endpoints"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_team_id_user_id_fkey" FOREIGN KEY ("team_id", "user_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_team_id_actor_id_fkey" FOREIGN KEY ("team_id", "actor_id") REFERENCES "users"("team_id", "id") ON DELETE SET NULL ("actor_id") ON UPDATE CASCADE;
