-- CreateEnum
CREATE TYPE "PaymentAttemptStatus" AS ENUM ('OPEN', 'DECLINED', 'SUCCEEDED');

-- CreateTable
CREATE TABLE "PaymentAttempt" (
    "key" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "status" "PaymentAttemptStatus" NOT NULL DEFAULT 'OPEN',
    "cardLast4" TEXT,
    "declineReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settledAt" TIMESTAMP(3),

    CONSTRAINT "PaymentAttempt_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "PaymentAttempt_orderId_createdAt_idx" ON "PaymentAttempt"("orderId", "createdAt");

-- AddForeignKey
ALTER TABLE "PaymentAttempt" ADD CONSTRAINT "PaymentAttempt_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every order's key becomes its first attempt. A declined order keeps that
-- attempt, declined, and opens a new one under a new key: it can be paid again.
INSERT INTO "PaymentAttempt" ("key", "orderId", "status", "cardLast4", "createdAt", "settledAt")
SELECT o."paymentKey", o."id",
       (CASE o."status" WHEN 'PAID' THEN 'SUCCEEDED' WHEN 'DECLINED' THEN 'DECLINED' ELSE 'OPEN' END)::"PaymentAttemptStatus",
       (SELECT c."cardLast4" FROM "Charge" c WHERE c."orderId" = o."id" ORDER BY c."createdAt" LIMIT 1),
       o."createdAt",
       CASE WHEN o."status" = 'PENDING' THEN NULL ELSE o."createdAt" END
FROM "Order" o;
UPDATE "Order" SET "paymentKey" = 'pay_' || gen_random_uuid(), "status" = 'PENDING' WHERE "status" = 'DECLINED';
INSERT INTO "PaymentAttempt" ("key", "orderId")
SELECT "paymentKey", "id" FROM "Order" WHERE "paymentKey" NOT IN (SELECT "key" FROM "PaymentAttempt");

-- AlterEnum
BEGIN;
CREATE TYPE "OrderStatus_new" AS ENUM ('PENDING', 'PAID');
ALTER TABLE "Order" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "Order" ALTER COLUMN "status" TYPE "OrderStatus_new" USING ("status"::text::"OrderStatus_new");
ALTER TYPE "OrderStatus" RENAME TO "OrderStatus_old";
ALTER TYPE "OrderStatus_new" RENAME TO "OrderStatus";
DROP TYPE "OrderStatus_old";
ALTER TABLE "Order" ALTER COLUMN "status" SET DEFAULT 'PENDING';
COMMIT;
