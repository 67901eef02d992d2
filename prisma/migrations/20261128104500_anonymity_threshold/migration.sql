-- Issue 45 "Anonymity that holds": k, the minimum number of people who must have answered an
-- occurrence of an anonymous poll before any of its results (counts, choices, answers) is shown.
-- A team setting, default 3, never below 2 (with one or two answers the results identify them).
ALTER TABLE "teams" ADD COLUMN     "anonymity_threshold" INTEGER NOT NULL DEFAULT 3;
ALTER TABLE "teams" ADD CONSTRAINT "teams_anonymity_threshold_check" CHECK ("anonymity_threshold" >= 2);
