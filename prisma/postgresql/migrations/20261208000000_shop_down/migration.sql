-- AlterTable
ALTER TABLE "LabSwitches" ADD COLUMN "shopDown" BOOLEAN NOT NULL DEFAULT false;
