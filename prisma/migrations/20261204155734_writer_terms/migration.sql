-- CreateTable
CREATE TABLE "WriterTerm" (
    "name" TEXT NOT NULL,
    "term" INTEGER NOT NULL,
    "holder" TEXT NOT NULL,
    "claimedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WriterTerm_pkey" PRIMARY KEY ("name")
);
