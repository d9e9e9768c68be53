ALTER TABLE "Charge" RENAME COLUMN "madeBy" TO "recordedBy";
ALTER TABLE "Charge" ADD COLUMN "providerRequestId" TEXT;
