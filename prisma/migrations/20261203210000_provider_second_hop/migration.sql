-- AlterTable
ALTER TABLE "PaymentAttempt" ADD COLUMN "paymentMethodId" TEXT;
ALTER TABLE "PaymentAttempt" ADD COLUMN "providerCalledAt" DATETIME;
ALTER TABLE "PaymentAttempt" ADD COLUMN "requestFingerprint" TEXT;
ALTER TABLE "PaymentAttempt" ADD COLUMN "settledBy" TEXT;

-- AlterTable
ALTER TABLE "Charge" ADD COLUMN "providerKey" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_LabSwitches" (
    "orderId" TEXT NOT NULL PRIMARY KEY,
    "dropReplies" INTEGER NOT NULL DEFAULT 0,
    "failuresBeforeCommit" INTEGER NOT NULL DEFAULT 0,
    "stallsBetweenHops" INTEGER NOT NULL DEFAULT 0,
    "naiveClient" BOOLEAN NOT NULL DEFAULT false,
    "naiveProviderCalls" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "LabSwitches_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_LabSwitches" ("dropReplies", "failuresBeforeCommit", "naiveClient", "orderId") SELECT "dropReplies", "failuresBeforeCommit", "naiveClient", "orderId" FROM "LabSwitches";
DROP TABLE "LabSwitches";
ALTER TABLE "new_LabSwitches" RENAME TO "LabSwitches";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "PaymentAttempt_status_providerCalledAt_idx" ON "PaymentAttempt"("status", "providerCalledAt");

