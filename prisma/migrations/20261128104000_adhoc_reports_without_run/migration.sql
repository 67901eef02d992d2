-- Issue 41: an answer on a day a standup does not run is an ad-hoc REPORT (occurrence_id NULL),
-- never a run: it used to open an ad-hoc occurrence (trigger 'adhoc') that the Overview, the
-- participation pages and GET /v2/standups/{id}/participation listed as a run ("Sat 28 Nov · 1/1 ·
-- Everyone answered"). The standups' ad-hoc occurrences written before become that too: their
-- reports and broadcast messages keep everything but the occurrence (ON DELETE SET NULL), and the
-- rows that only described the phantom run (its participation counts, summary, categorizations)
-- go with it (ON DELETE CASCADE). An ad-hoc occurrence that a scheduled run or "Ask now" took over
-- had its trigger changed then (lib/domain/occurrences.ts), so it is not touched; nor are those of
-- manual-only standups (wait_time NULL), where an answer still opens the day's ad-hoc run of its
-- authors (lib/domain/occurrence-resolution.ts). Data only; no schema change.
DELETE FROM "occurrences" o
USING "checkins" c
WHERE c."id" = o."checkin_id" AND c."kind" = 'standup' AND c."wait_time" IS NOT NULL AND o."trigger" = 'adhoc';
