-- AlterTable
ALTER TABLE "LabSwitches" ADD COLUMN "brokenRule" TEXT;
ALTER TABLE "LabSwitches" ADD COLUMN "failuresAfterWrite" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "LabSwitches" ADD COLUMN "pitfallMode" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "LabSwitches" ADD COLUMN "stuckExecutions" INTEGER NOT NULL DEFAULT 0;
