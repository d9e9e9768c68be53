-- CreateTable
CREATE TABLE "LabSwitches" (
    "orderId" TEXT NOT NULL PRIMARY KEY,
    "dropReplies" INTEGER NOT NULL DEFAULT 0,
    "failuresBeforeCommit" INTEGER NOT NULL DEFAULT 0,
    "ledgerDelayMs" INTEGER NOT NULL DEFAULT 0,
    "decline" BOOLEAN NOT NULL DEFAULT false,
    "naiveClient" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "LabSwitches_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Charge" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "cardLast4" TEXT NOT NULL,
    "naive" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Charge_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Charge" ("amountCents", "cardLast4", "createdAt", "id", "idempotencyKey", "orderId") SELECT "amountCents", "cardLast4", "createdAt", "id", "idempotencyKey", "orderId" FROM "Charge";
DROP TABLE "Charge";
ALTER TABLE "new_Charge" RENAME TO "Charge";
CREATE INDEX "Charge_orderId_idx" ON "Charge"("orderId");
CREATE INDEX "Charge_createdAt_idx" ON "Charge"("createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

