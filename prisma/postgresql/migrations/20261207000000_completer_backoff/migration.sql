-- AlterEnum
ALTER TYPE "PaymentAttemptStatus" ADD VALUE 'NEEDS_REVIEW';

-- DropIndex
DROP INDEX "PaymentAttempt_status_providerCalledAt_idx";

-- AlterTable
ALTER TABLE "PaymentAttempt" ADD COLUMN     "completerFailures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "nextTryAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "PaymentAttempt_status_nextTryAt_idx" ON "PaymentAttempt"("status", "nextTryAt");


-- Open attempts already past their recovery point are due for the completer at once.
UPDATE "PaymentAttempt" SET "nextTryAt" = "providerCalledAt" WHERE "status" = 'OPEN';
