-- AlterTable
ALTER TABLE "Sandbox" ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'berth',
ADD COLUMN     "provisionedAt" TIMESTAMP(3);

-- Sandboxes recorded before this migration were made by a create that finished (or was undone).
UPDATE "Sandbox" SET "provisionedAt" = "createdAt" WHERE "provisionedAt" IS NULL;
