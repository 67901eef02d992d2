-- CreateEnum
CREATE TYPE "WebhookDeliveryState" AS ENUM ('pending', 'delivered', 'failed');

-- AlterTable
ALTER TABLE "chat_messages" ADD COLUMN     "delivered_via" TEXT,
ADD COLUMN     "delivery_error" TEXT,
ADD COLUMN     "external_channel" TEXT;

-- CreateTable
CREATE TABLE "chat_threads" (
    "occurrence_id" INTEGER NOT NULL,
    "channel_id" INTEGER NOT NULL,
    "team_id" INTEGER NOT NULL,
    "external_channel" TEXT NOT NULL,
    "external_ts" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_threads_pkey" PRIMARY KEY ("occurrence_id","channel_id")
);

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" SERIAL NOT NULL,
    "team_id" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "description" TEXT NOT NULL DEFAULT '',
    "secret" TEXT NOT NULL,
    "created_by_id" INTEGER,
    "disabled_at" TIMESTAMPTZ(3),
    "disabled_reason" TEXT,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" SERIAL NOT NULL,
    "team_id" INTEGER NOT NULL,
    "endpoint_id" INTEGER NOT NULL,
    "message_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "state" "WebhookDeliveryState" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_team_id_created_at_id_idx" ON "webhook_endpoints"("team_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_message_id_key" ON "webhook_deliveries"("message_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("endpoint_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "chat_threads" ADD CONSTRAINT "chat_threads_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Delivery jobs (issue 9): every chat_messages row that becomes pending gets its
-- deliver_chat_message job in the same transaction as the write, whoever writes it (the outbox,
-- bulk createMany, an admin's retry). One job per message (job_key: a newer change replaces a
-- queued job; one that is running is followed by a fresh one), one queue per destination channel
-- or recipient so a channel's messages go out in order. Bookkeeping updates by the delivery job
-- (attempts, errors, external ids) do not re-enqueue.
CREATE FUNCTION "chat_messages_enqueue_delivery"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.delivery_state = 'pending' AND (
    TG_OP = 'INSERT'
    OR OLD.delivery_state IS DISTINCT FROM NEW.delivery_state
    OR OLD.text IS DISTINCT FROM NEW.text
    OR OLD.blocks IS DISTINCT FROM NEW.blocks
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
  ) THEN
    PERFORM graphile_worker.add_job(
      'deliver_chat_message',
      json_build_object('messageId', NEW.id),
      queue_name := 'chat:' || COALESCE('c' || NEW.channel_id::text, 'u' || NEW.recipient_id::text, 'm' || NEW.id::text),
      max_attempts := 10,
      job_key := 'chat_message:' || NEW.id::text
    );
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "chat_messages_enqueue_delivery"
AFTER INSERT OR UPDATE ON "chat_messages"
FOR EACH ROW WHEN (NEW.delivery_state = 'pending') EXECUTE FUNCTION "chat_messages_enqueue_delivery"();
