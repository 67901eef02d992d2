-- AlterTable
ALTER TABLE "questions" ADD COLUMN     "key" TEXT;
