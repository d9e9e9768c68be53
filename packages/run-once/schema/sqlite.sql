-- The run-once core's table on SQLite. One row per (caller, operation, key): the claim is an insert
-- against the unique index, so two requests can never both own a key.
CREATE TABLE "IdempotencyKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scope" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    -- 'IN_PROGRESS' or 'COMPLETED'.
    "state" TEXT NOT NULL,
    -- The owner's token: every later write of the owner names it, so a stale owner changes nothing.
    "token" TEXT NOT NULL,
    -- The lease: past it, an owner in progress is presumed dead.
    "lockedUntil" DATETIME NOT NULL,
    -- The retention: past it, the key is treated as absent and swept.
    "expiresAt" DATETIME NOT NULL,
    -- The final outcome's JSON, once completed.
    "outcome" TEXT,
    -- Set by a process waiting on the key from elsewhere (PostgreSQL: its completion then notifies).
    "awaited" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" DATETIME
);

CREATE UNIQUE INDEX "IdempotencyKey_scope_path_key_key" ON "IdempotencyKey"("scope", "path", "key");

CREATE INDEX "IdempotencyKey_expiresAt_idx" ON "IdempotencyKey"("expiresAt");
