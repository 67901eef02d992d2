-- Issue 45 "Anonymous report timestamps are coarsened in every output": the times of an anonymous
-- report (of an anonymous standup, or posted anonymously), of its answers and of a vote in an
-- anonymous poll are stored coarse, so that no output (API v1/v2, dashboard, CSV, webhooks,
-- summaries, the built-in feed) can tell when one was written or in which order: the run's date
-- (occurrence date; an ad-hoc report's local submission date) at 00:00 in the standup's/poll's
-- timezone, plus a random fraction of a second. That fraction is drawn per report (not derived from
-- the author, the id or the time), so reports listed newest first by (submitted_at, id) come out of
-- one run in a random order instead of submission order. A report keeps its coarse times when it
-- is edited. Triggers, so that every writer (API, dashboard, Slack, imports, seed) is covered.

CREATE FUNCTION "anonymous_coarse_instant"(checkin INTEGER, occurrence INTEGER, at TIMESTAMPTZ) RETURNS TIMESTAMPTZ
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  tz TEXT;
  d DATE;
BEGIN
  SELECT c.timezone INTO tz FROM checkins c WHERE c.id = checkin;
  tz := COALESCE(tz, 'UTC');
  IF occurrence IS NOT NULL THEN
    SELECT o.date INTO d FROM occurrences o WHERE o.id = occurrence;
  END IF;
  IF d IS NULL THEN
    d := (COALESCE(at, now()) AT TIME ZONE tz)::date;
  END IF;
  RETURN (d::timestamp AT TIME ZONE tz) + floor(random() * 1000) * interval '1 millisecond';
END;
$$;

CREATE FUNCTION "reports_coarse_anonymous"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  at TIMESTAMPTZ;
BEGIN
  IF NOT NEW.is_anonymous THEN
    RETURN NEW;
  END IF;
  -- An edit of a submitted anonymous report keeps its coarse times (an edit time is a time too).
  IF TG_OP = 'UPDATE' AND OLD.is_anonymous AND OLD.submitted_at IS NOT NULL AND NEW.submitted_at IS NOT NULL THEN
    NEW.submitted_at := OLD.submitted_at;
    NEW.started_at := OLD.started_at;
    NEW.created_at := OLD.created_at;
    NEW.updated_at := OLD.updated_at;
    RETURN NEW;
  END IF;
  at := "anonymous_coarse_instant"(NEW.checkin_id, NEW.occurrence_id, COALESCE(NEW.submitted_at, NEW.created_at));
  IF NEW.submitted_at IS NOT NULL THEN NEW.submitted_at := at; END IF;
  IF NEW.started_at IS NOT NULL THEN NEW.started_at := at; END IF;
  IF NEW.discarded_at IS NOT NULL THEN NEW.discarded_at := at; END IF;
  NEW.created_at := at;
  NEW.updated_at := at;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "reports_coarse_anonymous"
BEFORE INSERT OR UPDATE ON "reports"
FOR EACH ROW EXECUTE FUNCTION "reports_coarse_anonymous"();

-- An answer of an anonymous report takes its report's coarse time.
CREATE FUNCTION "answers_coarse_anonymous"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  at TIMESTAMPTZ;
BEGIN
  SELECT COALESCE(r.submitted_at, r.created_at) INTO at FROM reports r WHERE r.id = NEW.report_id AND r.is_anonymous;
  IF at IS NOT NULL THEN
    NEW.created_at := at;
    NEW.updated_at := at;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "answers_coarse_anonymous"
BEFORE INSERT OR UPDATE ON "answers"
FOR EACH ROW EXECUTE FUNCTION "answers_coarse_anonymous"();

-- A vote in an anonymous poll: the broadcast's date at 00:00 in the poll's timezone (+ a random fraction).
CREATE FUNCTION "votes_coarse_anonymous"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  checkin INTEGER;
BEGIN
  SELECT c.id INTO checkin FROM occurrences o JOIN checkins c ON c.id = o.checkin_id
    WHERE o.id = NEW.occurrence_id AND c.is_anonymous;
  IF checkin IS NOT NULL THEN
    NEW.created_at := "anonymous_coarse_instant"(checkin, NEW.occurrence_id, NEW.created_at);
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "votes_coarse_anonymous"
BEFORE INSERT ON "votes"
FOR EACH ROW EXECUTE FUNCTION "votes_coarse_anonymous"();

-- Existing rows: coarsen what is stored (the triggers above only see new writes).
ALTER TABLE "reports" DISABLE TRIGGER "reports_coarse_anonymous";
UPDATE "reports" r SET
  submitted_at = CASE WHEN r.submitted_at IS NULL THEN NULL ELSE x.at END,
  started_at = CASE WHEN r.started_at IS NULL THEN NULL ELSE x.at END,
  discarded_at = CASE WHEN r.discarded_at IS NULL THEN NULL ELSE x.at END,
  created_at = x.at, updated_at = x.at
FROM (SELECT id, "anonymous_coarse_instant"(checkin_id, occurrence_id, COALESCE(submitted_at, created_at)) AS at
      FROM "reports" WHERE is_anonymous) x
WHERE r.id = x.id;
ALTER TABLE "reports" ENABLE TRIGGER "reports_coarse_anonymous";
UPDATE "answers" a SET created_at = COALESCE(r.submitted_at, r.created_at), updated_at = COALESCE(r.submitted_at, r.created_at)
FROM "reports" r WHERE r.id = a.report_id AND r.is_anonymous;
UPDATE "votes" v SET created_at = "anonymous_coarse_instant"(c.id, v.occurrence_id, v.created_at)
FROM "occurrences" o JOIN "checkins" c ON c.id = o.checkin_id
WHERE o.id = v.occurrence_id AND c.is_anonymous;

-- A standup's recent anonymous reports (lib/domain/report-submission.ts `recent_anonymous`: may a
-- named answer release a held run?), read on every submission: a small partial index, anonymous
-- reports only, so the check never walks the standup's other reports.
CREATE INDEX "reports_anonymous_checkin_id_submitted_at_idx" ON "reports" ("checkin_id", "submitted_at")
  WHERE "is_anonymous" AND "status" = 'submitted';
