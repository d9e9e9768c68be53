-- A PaymentIntent and its one charge in one row (one write per charge), the card as charged on it, and the id of
-- the request that made it; the events' order and each delivery try; the lab's faults in a table of its own.
ALTER TABLE "Charge" ADD COLUMN "cardBrand" TEXT;
ALTER TABLE "Charge" ADD COLUMN "cardExpMonth" INTEGER;
ALTER TABLE "Charge" ADD COLUMN "cardExpYear" INTEGER;
ALTER TABLE "Charge" ADD COLUMN "cardFingerprint" TEXT;
ALTER TABLE "Charge" ADD COLUMN "lastPaymentError" TEXT;
ALTER TABLE "Charge" ADD COLUMN "metadata" TEXT NOT NULL DEFAULT '{}';
ALTER TABLE "Charge" ADD COLUMN "requestId" TEXT;
UPDATE "Charge" c SET "lastPaymentError" = i."lastPaymentError", "metadata" = i."metadata"
FROM "PaymentIntent" i WHERE i."id" = c."paymentIntent";
UPDATE "Charge" c SET "cardBrand" = m."brand", "cardExpMonth" = m."expMonth", "cardExpYear" = m."expYear",
    "cardFingerprint" = m."fingerprint"
FROM "PaymentMethod" m WHERE m."id" = c."paymentMethod";
UPDATE "Charge" SET "paymentIntent" = COALESCE("paymentIntent", 'pi_' || substr("id", 4)),
    "cardBrand" = COALESCE("cardBrand", 'visa'), "cardExpMonth" = COALESCE("cardExpMonth", 12),
    "cardExpYear" = COALESCE("cardExpYear", 2034), "cardFingerprint" = COALESCE("cardFingerprint", '');
ALTER TABLE "Charge" ALTER COLUMN "paymentIntent" SET NOT NULL;
ALTER TABLE "Charge" ALTER COLUMN "cardBrand" SET NOT NULL;
ALTER TABLE "Charge" ALTER COLUMN "cardExpMonth" SET NOT NULL;
ALTER TABLE "Charge" ALTER COLUMN "cardExpYear" SET NOT NULL;
ALTER TABLE "Charge" ALTER COLUMN "cardFingerprint" SET NOT NULL;
DROP INDEX "Charge_paymentIntent_idx";
CREATE UNIQUE INDEX "Charge_paymentIntent_key" ON "Charge"("paymentIntent");
DROP TABLE "PaymentIntent";

ALTER TABLE "WebhookEvent" ADD COLUMN "orderRef" TEXT;
UPDATE "WebhookEvent" SET "orderRef" = ("payload"::jsonb) #>> '{data,object,metadata,order}';
ALTER TABLE "WebhookEvent" DROP COLUMN "deliverTwice";
CREATE INDEX "WebhookEvent_account_createdAt_idx" ON "WebhookEvent"("account", "createdAt");
CREATE INDEX "WebhookEvent_account_orderRef_idx" ON "WebhookEvent"("account", "orderRef");

CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "try" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "status" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "WebhookDelivery_eventId_idx" ON "WebhookDelivery"("eventId");
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "WebhookEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "LabFault" (
    "account" TEXT NOT NULL,
    "orderRef" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "value" INTEGER NOT NULL,

    CONSTRAINT "LabFault_pkey" PRIMARY KEY ("account", "orderRef", "name")
);
INSERT INTO "LabFault" ("account", "orderRef", "name", "value")
SELECT "account", "orderRef", 'dropReplies', "dropReplies" FROM "FaultSwitches" WHERE "dropReplies" <> 0
UNION ALL SELECT "account", "orderRef", 'unavailable', "unavailable" FROM "FaultSwitches" WHERE "unavailable" <> 0
UNION ALL SELECT "account", "orderRef", 'timeouts', "timeouts" FROM "FaultSwitches" WHERE "timeouts" <> 0
UNION ALL SELECT "account", "orderRef", 'delayMs', "delayMs" FROM "FaultSwitches" WHERE "delayMs" <> 0
UNION ALL SELECT "account", "orderRef", 'decline', 1 FROM "FaultSwitches" WHERE "decline"
UNION ALL SELECT "account", "orderRef", 'webhookTwice', 1 FROM "FaultSwitches" WHERE "webhookTwice"
UNION ALL SELECT "account", "orderRef", 'holdReplyMs', "holdReplyMs" FROM "FaultSwitches" WHERE "holdReplyMs" <> 0;
DROP TABLE "FaultSwitches";
