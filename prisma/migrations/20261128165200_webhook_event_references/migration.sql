-- Webhook events as references (issue 51): a report/poll event stores {resource_kind, resource_id};
-- the delivery renders `data` at its first attempt and stores the payload.

-- CreateEnum
CREATE TYPE "WebhookResourceKind" AS ENUM ('report', 'poll');

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "resource_id" INTEGER,
ADD COLUMN     "resource_kind" "WebhookResourceKind",
ALTER COLUMN "payload" DROP NOT NULL;

-- A delivery carries its body or the reference it is rendered from (issue 51).
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_payload_or_reference"
  CHECK ("payload" IS NOT NULL OR ("resource_kind" IS NOT NULL AND "resource_id" IS NOT NULL));
