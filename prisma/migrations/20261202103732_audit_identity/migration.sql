-- AlterTable
ALTER TABLE "AuditEntry" ADD COLUMN     "actorGroups" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "decision" TEXT NOT NULL DEFAULT 'Allowed',
ADD COLUMN     "requestId" TEXT;

-- AlterTable
ALTER TABLE "MaintenanceRun" ADD COLUMN     "actorGroups" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "AuditEntry_actor_id_idx" ON "AuditEntry"("actor", "id");
