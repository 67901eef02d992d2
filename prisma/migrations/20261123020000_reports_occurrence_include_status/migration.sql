-- Participation at scale (issue 14): the index of reports by (occurrence_id, user_id) also carries
-- `status`, so "who submitted a report in these occurrences" (lib/domain/participation.ts, the
-- responders of a page) is an index-only scan instead of one heap fetch per report.
--
-- Measured on 1.08M reports (npm run bench:data, BENCH_KEEP_DB=1), the participation page of 100
-- occurrences x 100 members: 28.5 -> 23 ms of SQL (median of 25). `status` is INCLUDEd, not a key
-- column: as a third key column PostgreSQL 18 plans a skip scan over user_id for
-- "occurrence_id = ? AND status = 'submitted'" (measured 170 ms).
--
-- Prisma's schema cannot express INCLUDE; the index keeps the name and key columns the schema
-- declares (@@index([occurrence_id, user_id])). Building it locks writes to `reports` for the
-- build (about 2 s per million reports).
CREATE INDEX "reports_occurrence_id_user_id_status_idx" ON "reports" ("occurrence_id", "user_id") INCLUDE ("status");
DROP INDEX "reports_occurrence_id_user_id_idx";
ALTER INDEX "reports_occurrence_id_user_id_status_idx" RENAME TO "reports_occurrence_id_user_id_idx";
