-- AlterTable
ALTER TABLE "Charge" ADD COLUMN     "naive" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "LabSwitches" (
    "orderId" TEXT NOT NULL,
    "dropReplies" INTEGER NOT NULL DEFAULT 0,
    "failuresBeforeCommit" INTEGER NOT NULL DEFAULT 0,
    "ledgerDelayMs" INTEGER NOT NULL DEFAULT 0,
    "decline" BOOLEAN NOT NULL DEFAULT false,
    "naiveClient" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "LabSwitches_pkey" PRIMARY KEY ("orderId")
);

-- AddForeignKey
ALTER TABLE "LabSwitches" ADD CONSTRAINT "LabSwitches_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

