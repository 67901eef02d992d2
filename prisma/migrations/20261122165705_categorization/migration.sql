-- AlterEnum
ALTER TYPE "ChatMessageKind" ADD VALUE 'digest';

-- AlterTable
ALTER TABLE "categorizations" ADD COLUMN     "completed_at" TIMESTAMPTZ(3),
ADD COLUMN     "engine" TEXT;

-- CreateTable
CREATE TABLE "categories" (
    "id" SERIAL NOT NULL,
    "team_id" INTEGER NOT NULL,
    "question_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "keywords" JSONB NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "occurrence_summaries" (
    "id" SERIAL NOT NULL,
    "team_id" INTEGER NOT NULL,
    "checkin_id" INTEGER NOT NULL,
    "occurrence_id" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "engine" TEXT NOT NULL,
    "sections" JSONB NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "occurrence_summaries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "categories_question_id_name_key" ON "categories"("question_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "occurrence_summaries_occurrence_id_key" ON "occurrence_summaries"("occurrence_id");

-- CreateIndex
CREATE INDEX "occurrence_summaries_checkin_id_date_id_idx" ON "occurrence_summaries"("checkin_id", "date" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "categories" ADD CONSTRAINT "categories_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "categories" ADD CONSTRAINT "categories_question_id_fkey" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "occurrence_summaries" ADD CONSTRAINT "occurrence_summaries_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "occurrence_summaries" ADD CONSTRAINT "occurrence_summaries_checkin_id_fkey" FOREIGN KEY ("checkin_id") REFERENCES "checkins"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "occurrence_summaries" ADD CONSTRAINT "occurrence_summaries_occurrence_id_fkey" FOREIGN KEY ("occurrence_id") REFERENCES "occurrences"("id") ON DELETE CASCADE ON UPDATE CASCADE;
