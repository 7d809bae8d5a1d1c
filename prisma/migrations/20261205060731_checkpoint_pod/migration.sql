-- AlterTable
ALTER TABLE "Checkpoint" ADD COLUMN     "podUid" TEXT;
