-- CreateTable
CREATE TABLE "SpentCode" (
    "id" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SpentCode_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SpentCode_expiresAt_idx" ON "SpentCode"("expiresAt");
