-- The run-once core's table as the package ships it (packages/run-once/schema): no replay count.
ALTER TABLE "IdempotencyKey" DROP COLUMN "replayCount";
