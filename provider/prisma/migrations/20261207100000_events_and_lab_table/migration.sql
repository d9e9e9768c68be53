-- A PaymentIntent and its one charge in one row (one write per charge), the card as charged on it, and the id of
-- the request that made it; the events' order and each delivery try; the lab's faults in a table of its own.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;

CREATE TABLE "new_Charge" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "paymentIntent" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "paymentMethod" TEXT NOT NULL,
    "cardBrand" TEXT NOT NULL,
    "cardLast4" TEXT NOT NULL,
    "cardExpMonth" INTEGER NOT NULL,
    "cardExpYear" INTEGER NOT NULL,
    "cardFingerprint" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'succeeded',
    "failureCode" TEXT,
    "failureMessage" TEXT,
    "lastPaymentError" TEXT,
    "metadata" TEXT NOT NULL DEFAULT '{}',
    "orderRef" TEXT,
    "idempotencyKey" TEXT,
    "requestId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Charge" ("id", "paymentIntent", "account", "amount", "currency", "paymentMethod", "cardBrand",
    "cardLast4", "cardExpMonth", "cardExpYear", "cardFingerprint", "status", "failureCode", "failureMessage",
    "lastPaymentError", "metadata", "orderRef", "idempotencyKey", "createdAt")
SELECT c."id", COALESCE(c."paymentIntent", 'pi_' || substr(c."id", 4)), c."account", c."amount", c."currency",
    c."paymentMethod", COALESCE(m."brand", 'visa'), c."cardLast4", COALESCE(m."expMonth", 12),
    COALESCE(m."expYear", 2034), COALESCE(m."fingerprint", ''), c."status", c."failureCode", c."failureMessage",
    i."lastPaymentError", COALESCE(i."metadata", '{}'), c."orderRef", c."idempotencyKey", c."createdAt"
FROM "Charge" c
LEFT JOIN "PaymentIntent" i ON i."id" = c."paymentIntent"
LEFT JOIN "PaymentMethod" m ON m."id" = c."paymentMethod";
DROP TABLE "Charge";
DROP TABLE "PaymentIntent";
ALTER TABLE "new_Charge" RENAME TO "Charge";
CREATE UNIQUE INDEX "Charge_paymentIntent_key" ON "Charge"("paymentIntent");
CREATE INDEX "Charge_account_orderRef_idx" ON "Charge"("account", "orderRef");

CREATE TABLE "new_WebhookEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "orderRef" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" DATETIME,
    "gaveUpAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_WebhookEvent" ("id", "account", "type", "payload", "orderRef", "attempts", "nextAttemptAt",
    "deliveredAt", "gaveUpAt", "createdAt")
SELECT "id", "account", "type", "payload", json_extract("payload", '$.data.object.metadata.order'), "attempts",
    "nextAttemptAt", "deliveredAt", "gaveUpAt", "createdAt"
FROM "WebhookEvent";
DROP TABLE "WebhookEvent";
ALTER TABLE "new_WebhookEvent" RENAME TO "WebhookEvent";
CREATE INDEX "WebhookEvent_deliveredAt_gaveUpAt_nextAttemptAt_idx" ON "WebhookEvent"("deliveredAt", "gaveUpAt", "nextAttemptAt");
CREATE INDEX "WebhookEvent_account_createdAt_idx" ON "WebhookEvent"("account", "createdAt");
CREATE INDEX "WebhookEvent_account_orderRef_idx" ON "WebhookEvent"("account", "orderRef");

CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "eventId" TEXT NOT NULL,
    "try" INTEGER NOT NULL,
    "at" DATETIME NOT NULL,
    "status" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER,
    CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "WebhookEvent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "WebhookDelivery_eventId_idx" ON "WebhookDelivery"("eventId");

CREATE TABLE "LabFault" (
    "account" TEXT NOT NULL,
    "orderRef" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "value" INTEGER NOT NULL,

    PRIMARY KEY ("account", "orderRef", "name")
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

PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
