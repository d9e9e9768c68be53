-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_RunOnceAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scope" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "instance" TEXT NOT NULL,
    "generation" TEXT,
    "decision" TEXT,
    "keyState" TEXT,
    "fingerprint" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" INTEGER,
    "durationMs" INTEGER NOT NULL,
    "replyLost" BOOLEAN NOT NULL DEFAULT false,
    "retryAfterSeconds" INTEGER,
    "keyExpiresAt" DATETIME,
    "sentBy" TEXT NOT NULL DEFAULT 'client'
);
INSERT INTO "new_RunOnceAttempt" ("at", "body", "decision", "durationMs", "fingerprint", "generation", "id", "instance", "key", "keyExpiresAt", "keyState", "path", "replyLost", "retryAfterSeconds", "scope", "status") SELECT "at", "body", "decision", "durationMs", "fingerprint", "generation", "id", "instance", "key", "keyExpiresAt", "keyState", "path", "replyLost", "retryAfterSeconds", "scope", "status" FROM "RunOnceAttempt";
DROP TABLE "RunOnceAttempt";
ALTER TABLE "new_RunOnceAttempt" RENAME TO "RunOnceAttempt";
CREATE INDEX "RunOnceAttempt_scope_path_key_at_idx" ON "RunOnceAttempt"("scope", "path", "key", "at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

