-- AlterTable
ALTER TABLE "LabSwitches" ADD COLUMN "stallPid" INTEGER;
