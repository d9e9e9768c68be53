-- PaymentIntents, card details on PaymentMethods, declined charges and the webhook events
ALTER TABLE "PaymentMethod" ADD COLUMN "brand" TEXT NOT NULL DEFAULT 'visa';
ALTER TABLE "PaymentMethod" ADD COLUMN "expMonth" INTEGER NOT NULL DEFAULT 12;
ALTER TABLE "PaymentMethod" ADD COLUMN "expYear" INTEGER NOT NULL DEFAULT 2034;
ALTER TABLE "PaymentMethod" ADD COLUMN "fingerprint" TEXT NOT NULL DEFAULT '';

ALTER TABLE "Charge" ADD COLUMN "status" TEXT NOT NULL DEFAULT 'succeeded';
ALTER TABLE "Charge" ADD COLUMN "failureCode" TEXT;
ALTER TABLE "Charge" ADD COLUMN "failureMessage" TEXT;
ALTER TABLE "Charge" ADD COLUMN "paymentIntent" TEXT;

-- CreateTable
CREATE TABLE "PaymentIntent" (
    "id" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "paymentMethod" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "latestCharge" TEXT,
    "lastPaymentError" TEXT,
    "metadata" TEXT NOT NULL DEFAULT '{}',
    "orderRef" TEXT,
    "idempotencyKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PaymentIntent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),
    "gaveUpAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PaymentIntent_account_orderRef_idx" ON "PaymentIntent"("account", "orderRef");

-- CreateIndex
CREATE INDEX "Charge_paymentIntent_idx" ON "Charge"("paymentIntent");

-- CreateIndex
CREATE INDEX "WebhookEvent_deliveredAt_gaveUpAt_nextAttemptAt_idx" ON "WebhookEvent"("deliveredAt", "gaveUpAt", "nextAttemptAt");
