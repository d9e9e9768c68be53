-- AlterTable
ALTER TABLE "LabSwitches" ADD COLUMN     "consumerDeathsBeforeAck" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "relayDuplicates" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "poisonMessage" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "naiveConsumer" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "QueueStep" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "step" TEXT NOT NULL,
    "delivery" INTEGER,
    "decision" TEXT,
    "pid" INTEGER,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ackedAt" TIMESTAMP(3),

    CONSTRAINT "QueueStep_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "QueueStep_orderId_at_idx" ON "QueueStep"("orderId", "at");
