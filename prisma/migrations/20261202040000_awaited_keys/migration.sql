-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_IdempotencyKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scope" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "lockedUntil" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "outcome" TEXT,
    "awaited" BOOLEAN NOT NULL DEFAULT false,
    "replayCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" DATETIME
);
INSERT INTO "new_IdempotencyKey" ("completedAt", "createdAt", "expiresAt", "fingerprint", "id", "key", "lockedUntil", "outcome", "path", "replayCount", "scope", "state", "token") SELECT "completedAt", "createdAt", "expiresAt", "fingerprint", "id", "key", "lockedUntil", "outcome", "path", "replayCount", "scope", "state", "token" FROM "IdempotencyKey";
DROP TABLE "IdempotencyKey";
ALTER TABLE "new_IdempotencyKey" RENAME TO "IdempotencyKey";
CREATE INDEX "IdempotencyKey_expiresAt_idx" ON "IdempotencyKey"("expiresAt");
CREATE UNIQUE INDEX "IdempotencyKey_scope_path_key_key" ON "IdempotencyKey"("scope", "path", "key");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

