-- Several instances on one database (issue 14).

-- CreateTable (prisma-sql-diff)
CREATE TABLE "app_secrets" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_secrets_pkey" PRIMARY KEY ("name")
);

-- API-key cache invalidation across instances (issue 14, lib/auth/api-key-cache.ts).
-- Triggers are outside Prisma's schema language, so this migration is written by hand.
-- Every change that can turn a cached key resolution wrong notifies channel 'checkin_api_keys'
-- (delivered at commit to every listening instance): 'key:<id>' for a key, 'user:<id>' for its
-- user, 'all' on TRUNCATE. last_used_at updates do not notify (UPDATE OF lists the columns).
CREATE FUNCTION "checkin_notify_api_key_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('checkin_api_keys', 'all');
  ELSIF TG_TABLE_NAME = 'api_keys' THEN
    PERFORM pg_notify('checkin_api_keys', 'key:' || OLD.id);
  ELSE
    PERFORM pg_notify('checkin_api_keys', 'user:' || OLD.id);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "api_keys_notify_change"
  AFTER UPDATE OF "revoked_at", "hash", "user_id", "team_id" OR DELETE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION "checkin_notify_api_key_change"();
CREATE TRIGGER "api_keys_notify_truncate"
  AFTER TRUNCATE ON "api_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION "checkin_notify_api_key_change"();
CREATE TRIGGER "users_notify_api_key_change"
  AFTER UPDATE OF "deactivated_at", "is_admin", "team_id", "chat_id" OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "checkin_notify_api_key_change"();
CREATE TRIGGER "users_notify_api_key_truncate"
  AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "checkin_notify_api_key_change"();
