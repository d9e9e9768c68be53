-- AlterTable
ALTER TABLE "LabSwitches" ADD COLUMN     "stallsBeforeCommit" INTEGER NOT NULL DEFAULT 0;

