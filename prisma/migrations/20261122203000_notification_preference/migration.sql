-- Per-member delivery preference (issue 9): questions and reminders now follow
-- `users.notification_channel` (lib/chat/delivery.ts `directRoute`). Until now the column was not
-- read and every row carries the old default 'web', which now means "dashboard only" — so the
-- default becomes 'slack_dm' (Slack DM, falling back to e-mail, then the dashboard: what delivery
-- did for everyone before) and the rows holding the old, never-honoured default move with it.
-- AlterTable
ALTER TABLE "users" ALTER COLUMN "notification_channel" SET DEFAULT 'slack_dm';

UPDATE "users" SET "notification_channel" = 'slack_dm' WHERE "notification_channel" = 'web';
