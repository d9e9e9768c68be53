-- A receipt carries the delivery that sent it, written in its own transaction.
-- Receipts already sent take their delivery's recorded step, or, where the worker
-- died before recording it, an id of their own and pid 0 (unknown).
-- AlterTable
ALTER TABLE "Receipt" ADD COLUMN     "deliveryId" TEXT,
ADD COLUMN     "pid" INTEGER;

UPDATE "Receipt" r
SET "deliveryId" = COALESCE(s."id", 'unrecorded_' || r."id"), "pid" = COALESCE(s."pid", 0)
FROM "Receipt" r2
LEFT JOIN "QueueStep" s ON s."id" = (
    SELECT "id" FROM "QueueStep"
    WHERE "eventId" = r2."eventId" AND "delivery" = r2."delivery" AND "step" = 'delivered'
        AND "decision" IN ('executed', 'sent naively')
    ORDER BY "at" LIMIT 1
)
WHERE r2."id" = r."id";

ALTER TABLE "Receipt" ALTER COLUMN "deliveryId" SET NOT NULL,
ALTER COLUMN "pid" SET NOT NULL;
