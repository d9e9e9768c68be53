-- The lab's faults belong to the account that set them. They are test switches, not records: dropped, not moved.
DROP TABLE "FaultSwitches";
CREATE TABLE "FaultSwitches" (
    "account" TEXT NOT NULL,
    "orderRef" TEXT NOT NULL,
    "dropReplies" INTEGER NOT NULL DEFAULT 0,
    "unavailable" INTEGER NOT NULL DEFAULT 0,
    "timeouts" INTEGER NOT NULL DEFAULT 0,
    "delayMs" INTEGER NOT NULL DEFAULT 0,
    "decline" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "FaultSwitches_pkey" PRIMARY KEY ("account","orderRef")
);
