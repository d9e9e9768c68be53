ALTER TABLE "RunOnceAttempt" RENAME TO "RequestRecord";
DROP INDEX "RunOnceAttempt_scope_path_key_at_idx";
CREATE INDEX "RequestRecord_scope_path_key_at_idx" ON "RequestRecord"("scope", "path", "key", "at");
ALTER TABLE "Charge" ADD COLUMN "madeBy" TEXT;
