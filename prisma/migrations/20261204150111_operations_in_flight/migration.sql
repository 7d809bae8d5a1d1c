-- CreateTable
CREATE TABLE "Operation" (
    "targetId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "replica" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "renewedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Operation_pkey" PRIMARY KEY ("targetId","kind")
);
