-- AlterTable
ALTER TABLE "RunOnceAttempt" ADD COLUMN     "sentBy" TEXT NOT NULL DEFAULT 'client',
ALTER COLUMN "decision" DROP NOT NULL,
ALTER COLUMN "status" DROP NOT NULL;

