-- DropTable
DROP TABLE "RateLimitCounter";
