-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "AnswerType" ADD VALUE 'rating';
ALTER TYPE "AnswerType" ADD VALUE 'number';
ALTER TYPE "AnswerType" ADD VALUE 'multi_select';

-- AlterTable
ALTER TABLE "questions" ADD COLUMN     "optional" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "scale_labels" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "scale_max" INTEGER,
ADD COLUMN     "scale_min" INTEGER;
