-- CreateTable
CREATE TABLE "PaymentAttempt" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "cardLast4" TEXT,
    "declineReason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settledAt" DATETIME,
    CONSTRAINT "PaymentAttempt_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "PaymentAttempt_orderId_createdAt_idx" ON "PaymentAttempt"("orderId", "createdAt");

-- Every order's key becomes its first attempt. A declined order keeps that
-- attempt, declined, and opens a new one under a new key: it can be paid again.
INSERT INTO "PaymentAttempt" ("key", "orderId", "status", "cardLast4", "createdAt", "settledAt")
SELECT o."paymentKey", o."id",
       CASE o."status" WHEN 'PAID' THEN 'SUCCEEDED' WHEN 'DECLINED' THEN 'DECLINED' ELSE 'OPEN' END,
       (SELECT c."cardLast4" FROM "Charge" c WHERE c."orderId" = o."id" ORDER BY c."createdAt" LIMIT 1),
       o."createdAt",
       CASE WHEN o."status" = 'PENDING' THEN NULL ELSE o."createdAt" END
FROM "Order" o;
UPDATE "Order" SET "paymentKey" = 'pay_' || lower(hex(randomblob(16))), "status" = 'PENDING' WHERE "status" = 'DECLINED';
INSERT INTO "PaymentAttempt" ("key", "orderId", "createdAt")
SELECT "paymentKey", "id", CURRENT_TIMESTAMP FROM "Order" WHERE "paymentKey" NOT IN (SELECT "key" FROM "PaymentAttempt");
