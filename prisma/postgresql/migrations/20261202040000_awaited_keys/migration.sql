-- AlterTable
ALTER TABLE "IdempotencyKey" ADD COLUMN     "awaited" BOOLEAN NOT NULL DEFAULT false;

