-- CreateTable
CREATE TABLE "CatchUpCursor" (
    "name" TEXT NOT NULL,
    "createdAt" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CatchUpCursor_pkey" PRIMARY KEY ("name")
);
