-- CreateTable
CREATE TABLE "MaintenanceRun" (
    "id" UUID NOT NULL,
    "node" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'Running',
    "actor" TEXT NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "progress" JSONB NOT NULL DEFAULT '{}',
    "relaxedBudgets" JSONB NOT NULL DEFAULT '[]',
    "message" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "MaintenanceRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "MaintenanceRun_node_startedAt_idx" ON "MaintenanceRun"("node", "startedAt");

-- CreateIndex
CREATE INDEX "MaintenanceRun_state_idx" ON "MaintenanceRun"("state");
