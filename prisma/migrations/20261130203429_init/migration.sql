-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Sandbox" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "liveKey" TEXT,
    "spec" JSONB NOT NULL,
    "workspaceBackend" TEXT NOT NULL,
    "phase" TEXT NOT NULL DEFAULT 'Pending',
    "reason" TEXT,
    "message" TEXT,
    "conditions" JSONB NOT NULL DEFAULT '[]',
    "nodeName" TEXT,
    "podName" TEXT,
    "podUid" TEXT,
    "previousNodeName" TEXT,
    "previousPodUid" TEXT,
    "statusDetails" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "Sandbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TimelineEvent" (
    "id" BIGSERIAL NOT NULL,
    "sandboxId" UUID,
    "type" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "recordedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TimelineEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Checkpoint" (
    "id" UUID NOT NULL,
    "sandboxId" UUID NOT NULL,
    "trigger" TEXT NOT NULL,
    "result" TEXT NOT NULL DEFAULT 'Running',
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "durationMs" INTEGER,
    "hookOutputTail" TEXT,
    "markerWritten" BOOLEAN NOT NULL DEFAULT false,
    "snapshotName" TEXT,
    "snapshotReady" BOOLEAN,
    "snapshotError" TEXT,

    CONSTRAINT "Checkpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewaySetting" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT NOT NULL,

    CONSTRAINT "GatewaySetting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "targetKind" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Sandbox_liveKey_key" ON "Sandbox"("liveKey");

-- CreateIndex
CREATE INDEX "Sandbox_namespace_name_idx" ON "Sandbox"("namespace", "name");

-- CreateIndex
CREATE INDEX "Sandbox_createdAt_id_idx" ON "Sandbox"("createdAt", "id");

-- CreateIndex
CREATE INDEX "TimelineEvent_sandboxId_id_idx" ON "TimelineEvent"("sandboxId", "id");

-- CreateIndex
CREATE INDEX "Checkpoint_sandboxId_startedAt_idx" ON "Checkpoint"("sandboxId", "startedAt");

-- CreateIndex
CREATE INDEX "AuditEntry_targetKind_targetId_id_idx" ON "AuditEntry"("targetKind", "targetId", "id");

-- CreateIndex
CREATE INDEX "AuditEntry_at_idx" ON "AuditEntry"("at");

-- AddForeignKey
ALTER TABLE "TimelineEvent" ADD CONSTRAINT "TimelineEvent_sandboxId_fkey" FOREIGN KEY ("sandboxId") REFERENCES "Sandbox"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Checkpoint" ADD CONSTRAINT "Checkpoint_sandboxId_fkey" FOREIGN KEY ("sandboxId") REFERENCES "Sandbox"("id") ON DELETE CASCADE ON UPDATE CASCADE;
