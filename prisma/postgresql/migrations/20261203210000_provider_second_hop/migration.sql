-- AlterTable
ALTER TABLE "PaymentAttempt" ADD COLUMN     "paymentMethodId" TEXT,
ADD COLUMN     "providerCalledAt" TIMESTAMP(3),
ADD COLUMN     "requestFingerprint" TEXT,
ADD COLUMN     "settledBy" TEXT;

-- AlterTable
ALTER TABLE "Charge" ADD COLUMN     "providerKey" TEXT;

-- AlterTable
ALTER TABLE "LabSwitches" DROP COLUMN "decline",
DROP COLUMN "ledgerDelayMs",
DROP COLUMN "stallsBeforeCommit",
ADD COLUMN     "naiveProviderCalls" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "stallsBetweenHops" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "PaymentAttempt_status_providerCalledAt_idx" ON "PaymentAttempt"("status", "providerCalledAt");

