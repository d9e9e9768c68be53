-- A receipt carries the delivery that sent it, written in its own transaction.
-- Receipts already sent take their delivery's recorded step, or, where the worker
-- died before recording it, an id of their own and pid 0 (unknown).
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Receipt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "chargeId" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "eventId" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "delivery" INTEGER NOT NULL,
    "pid" INTEGER NOT NULL,
    "naive" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Receipt" ("amountCents", "chargeId", "createdAt", "delivery", "deliveryId", "eventId", "id", "naive", "orderId", "pid")
SELECT r."amountCents", r."chargeId", r."createdAt", r."delivery",
    COALESCE(s."id", 'unrecorded_' || r."id"), r."eventId", r."id", r."naive", r."orderId", COALESCE(s."pid", 0)
FROM "Receipt" r
LEFT JOIN "QueueStep" s ON s."id" = (
    SELECT "id" FROM "QueueStep"
    WHERE "eventId" = r."eventId" AND "delivery" = r."delivery" AND "step" = 'delivered'
        AND "decision" IN ('executed', 'sent naively')
    ORDER BY "at" LIMIT 1
);
DROP TABLE "Receipt";
ALTER TABLE "new_Receipt" RENAME TO "Receipt";
CREATE INDEX "Receipt_orderId_idx" ON "Receipt"("orderId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
