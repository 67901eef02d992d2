-- Issue 45 "Retention": per team, how long report answers, poll responses and chat message texts
-- are kept (null: forever) and what happens after (anonymise: answers removed, the fact of
-- answering kept; delete: reports and votes removed too), and how long audit entries are kept.
-- Applied nightly by the `apply_retention` job (lib/domain/retention.ts).
ALTER TABLE "teams" ADD COLUMN     "audit_retention_days" INTEGER NOT NULL DEFAULT 365,
ADD COLUMN     "retention_days" INTEGER,
ADD COLUMN     "retention_mode" TEXT NOT NULL DEFAULT 'anonymise';
ALTER TABLE "teams" ADD CONSTRAINT "teams_retention_mode_check" CHECK ("retention_mode" IN ('anonymise', 'delete'));
ALTER TABLE "teams" ADD CONSTRAINT "teams_retention_days_check" CHECK ("retention_days" IS NULL OR "retention_days" >= 1);
ALTER TABLE "teams" ADD CONSTRAINT "teams_audit_retention_days_check" CHECK ("audit_retention_days" >= 1);
