-- AlterTable
ALTER TABLE "MaintenanceRun" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "authority" JSONB,
ADD COLUMN     "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "runBy" TEXT;

-- Runs stored before this column acted as the person who started them.
UPDATE "MaintenanceRun"
SET "authority" = jsonb_build_object('kind', 'impersonate', 'person', jsonb_build_object('username', "actor", 'groups', to_jsonb("actorGroups")));

ALTER TABLE "MaintenanceRun" ALTER COLUMN "authority" SET NOT NULL;
