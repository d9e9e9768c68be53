-- CreateTable
CREATE TABLE "Product" (
    "sku" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "priceCents" INTEGER NOT NULL
);

-- CreateTable
CREATE TABLE "Order" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sessionId" TEXT NOT NULL,
    "paymentKey" TEXT NOT NULL,
    "totalCents" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "PaymentAttempt" (
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

-- CreateTable
CREATE TABLE "OrderItem" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "orderId" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unitPriceCents" INTEGER NOT NULL,
    CONSTRAINT "OrderItem_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "OrderItem_sku_fkey" FOREIGN KEY ("sku") REFERENCES "Product" ("sku") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Charge" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "providerKey" TEXT,
    "cardLast4" TEXT NOT NULL,
    "naive" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Charge_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunOnceAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scope" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "instance" TEXT NOT NULL,
    "generation" TEXT,
    "decision" TEXT NOT NULL,
    "keyState" TEXT,
    "fingerprint" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "replyLost" BOOLEAN NOT NULL DEFAULT false,
    "retryAfterSeconds" INTEGER,
    "keyExpiresAt" DATETIME
);

-- CreateTable
CREATE TABLE "LabSwitches" (
    "orderId" TEXT NOT NULL PRIMARY KEY,
    "dropReplies" INTEGER NOT NULL DEFAULT 0,
    "failuresBeforeCommit" INTEGER NOT NULL DEFAULT 0,
    "stallsBetweenHops" INTEGER NOT NULL DEFAULT 0,
    "naiveClient" BOOLEAN NOT NULL DEFAULT false,
    "naiveProviderCalls" BOOLEAN NOT NULL DEFAULT false,
    "pitfallMode" BOOLEAN NOT NULL DEFAULT false,
    "brokenRule" TEXT,
    "failuresAfterWrite" INTEGER NOT NULL DEFAULT 0,
    "stuckExecutions" INTEGER NOT NULL DEFAULT 0,
    "stallPid" INTEGER,
    CONSTRAINT "LabSwitches_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OutboxEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "type" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" DATETIME,
    "deliveries" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" DATETIME,
    "deadAt" DATETIME
);

-- CreateTable
CREATE TABLE "Receipt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "chargeId" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "eventId" TEXT NOT NULL,
    "delivery" INTEGER NOT NULL,
    "naive" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ServerSecret" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "Order_paymentKey_key" ON "Order"("paymentKey");

-- CreateIndex
CREATE INDEX "Order_sessionId_createdAt_idx" ON "Order"("sessionId", "createdAt");

-- CreateIndex
CREATE INDEX "PaymentAttempt_orderId_createdAt_idx" ON "PaymentAttempt"("orderId", "createdAt");

-- CreateIndex
CREATE INDEX "PaymentAttempt_status_nextTryAt_idx" ON "PaymentAttempt"("status", "nextTryAt");

-- CreateIndex
CREATE INDEX "OrderItem_orderId_idx" ON "OrderItem"("orderId");

-- CreateIndex
CREATE INDEX "Charge_orderId_idx" ON "Charge"("orderId");

-- CreateIndex
CREATE INDEX "Charge_createdAt_idx" ON "Charge"("createdAt");

-- CreateIndex
CREATE INDEX "RunOnceAttempt_scope_path_key_at_idx" ON "RunOnceAttempt"("scope", "path", "key", "at");

-- CreateIndex
CREATE INDEX "OutboxEvent_sentAt_createdAt_idx" ON "OutboxEvent"("sentAt", "createdAt");

-- CreateIndex
CREATE INDEX "Receipt_orderId_idx" ON "Receipt"("orderId");

-- The shop's own column beside the run-once table (20261201000000_run_once, the package's SQL).
ALTER TABLE "IdempotencyKey" ADD COLUMN "replayCount" INTEGER NOT NULL DEFAULT 0;
