ALTER TABLE "RunOnceAttempt" RENAME TO "RequestRecord";
ALTER TABLE "RequestRecord" RENAME CONSTRAINT "RunOnceAttempt_pkey" TO "RequestRecord_pkey";
ALTER INDEX "RunOnceAttempt_scope_path_key_at_idx" RENAME TO "RequestRecord_scope_path_key_at_idx";
ALTER TABLE "Charge" ADD COLUMN "madeBy" TEXT;
