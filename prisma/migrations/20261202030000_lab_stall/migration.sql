-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_LabSwitches" (
    "orderId" TEXT NOT NULL PRIMARY KEY,
    "dropReplies" INTEGER NOT NULL DEFAULT 0,
    "failuresBeforeCommit" INTEGER NOT NULL DEFAULT 0,
    "stallsBeforeCommit" INTEGER NOT NULL DEFAULT 0,
    "ledgerDelayMs" INTEGER NOT NULL DEFAULT 0,
    "decline" BOOLEAN NOT NULL DEFAULT false,
    "naiveClient" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "LabSwitches_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_LabSwitches" ("decline", "dropReplies", "failuresBeforeCommit", "ledgerDelayMs", "naiveClient", "orderId") SELECT "decline", "dropReplies", "failuresBeforeCommit", "ledgerDelayMs", "naiveClient", "orderId" FROM "LabSwitches";
DROP TABLE "LabSwitches";
ALTER TABLE "new_LabSwitches" RENAME TO "LabSwitches";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

