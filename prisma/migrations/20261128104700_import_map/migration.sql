-- AlterEnum
ALTER TYPE "OccurrenceTrigger" ADD VALUE 'import';

-- CreateTable
CREATE TABLE "import_map" (
    "team_id" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "local_id" INTEGER,
    "data" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "import_map_pkey" PRIMARY KEY ("team_id","source","kind","source_id")
);

-- AddForeignKey
ALTER TABLE "import_map" ADD CONSTRAINT "import_map_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
