-- CreateTable
CREATE TABLE "CatchUpCursor" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "createdAt" INTEGER NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
