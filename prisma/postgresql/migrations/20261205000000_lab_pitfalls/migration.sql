-- AlterTable
ALTER TABLE "LabSwitches" ADD COLUMN     "brokenRule" TEXT,
ADD COLUMN     "failuresAfterWrite" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "pitfallMode" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "stuckExecutions" INTEGER NOT NULL DEFAULT 0;
