-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PaymentAttempt" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "cardLast4" TEXT,
    "declineReason" TEXT,
    "paymentMethodId" TEXT,
    "requestFingerprint" TEXT,
    "providerCalledAt" DATETIME,
    "settledBy" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settledAt" DATETIME,
    "nextTryAt" DATETIME,
    "completerFailures" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "PaymentAttempt_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_PaymentAttempt" ("cardLast4", "createdAt", "declineReason", "key", "orderId", "paymentMethodId", "providerCalledAt", "requestFingerprint", "settledAt", "settledBy", "status", "nextTryAt") SELECT "cardLast4", "createdAt", "declineReason", "key", "orderId", "paymentMethodId", "providerCalledAt", "requestFingerprint", "settledAt", "settledBy", "status", "providerCalledAt" FROM "PaymentAttempt";
DROP TABLE "PaymentAttempt";
ALTER TABLE "new_PaymentAttempt" RENAME TO "PaymentAttempt";
CREATE INDEX "PaymentAttempt_orderId_createdAt_idx" ON "PaymentAttempt"("orderId", "createdAt");
CREATE INDEX "PaymentAttempt_status_nextTryAt_idx" ON "PaymentAttempt"("status", "nextTryAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

