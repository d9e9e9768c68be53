-- AlterTable
ALTER TABLE "LabSwitches" ADD COLUMN "consumerDeathsBeforeAck" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "LabSwitches" ADD COLUMN "relayDuplicates" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "LabSwitches" ADD COLUMN "poisonMessage" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "LabSwitches" ADD COLUMN "naiveConsumer" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "QueueStep" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "step" TEXT NOT NULL,
    "delivery" INTEGER,
    "decision" TEXT,
    "pid" INTEGER,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ackedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "QueueStep_orderId_at_idx" ON "QueueStep"("orderId", "at");
