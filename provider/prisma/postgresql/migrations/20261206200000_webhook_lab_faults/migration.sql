-- The lab's webhook faults: an order's events delivered twice, and the provider's reply held after its commit
ALTER TABLE "WebhookEvent" ADD COLUMN "deliverTwice" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "FaultSwitches" ADD COLUMN "webhookTwice" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "FaultSwitches" ADD COLUMN "holdReplyMs" INTEGER NOT NULL DEFAULT 0;
