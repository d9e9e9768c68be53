-- CreateTable
CREATE TABLE "RunOnceAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scope" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "instance" TEXT NOT NULL,
    "generation" TEXT,
    "decision" TEXT NOT NULL,
    "keyState" TEXT,
    "fingerprint" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "replyLost" BOOLEAN NOT NULL DEFAULT false,
    "retryAfterSeconds" INTEGER,
    "keyExpiresAt" DATETIME
);

-- CreateIndex
CREATE INDEX "RunOnceAttempt_scope_path_key_at_idx" ON "RunOnceAttempt"("scope", "path", "key", "at");

