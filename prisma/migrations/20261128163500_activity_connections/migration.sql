-- CreateEnum
CREATE TYPE "ActivityProvider" AS ENUM ('github', 'gitlab', 'gitea', 'jira', 'linear');

-- CreateTable
CREATE TABLE "activity_connections" (
    "id" SERIAL NOT NULL,
    "team_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "provider" "ActivityProvider" NOT NULL,
    "base_url" TEXT NOT NULL,
    "login" TEXT NOT NULL,
    "token_sealed" TEXT NOT NULL,
    "last_error" TEXT,
    "last_fetched_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "activity_suggestions" (
    "occurrence_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "team_id" INTEGER NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,
    "items" JSONB NOT NULL DEFAULT '[]',
    "errors" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "fetched_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_suggestions_pkey" PRIMARY KEY ("occurrence_id","user_id")
);

-- CreateIndex
CREATE INDEX "activity_connections_team_id_user_id_idx" ON "activity_connections"("team_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "activity_connections_team_id_id_key" ON "activity_connections"("team_id", "id");

-- CreateIndex
CREATE INDEX "activity_suggestions_team_id_user_id_idx" ON "activity_suggestions"("team_id", "user_id");

-- AddForeignKey
ALTER TABLE "activity_connections" ADD CONSTRAINT "activity_connections_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activity_connections" ADD CONSTRAINT "activity_connections_team_id_user_id_fkey" FOREIGN KEY ("team_id", "user_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activity_suggestions" ADD CONSTRAINT "activity_suggestions_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activity_suggestions" ADD CONSTRAINT "activity_suggestions_team_id_occurrence_id_fkey" FOREIGN KEY ("team_id", "occurrence_id") REFERENCES "occurrences"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activity_suggestions" ADD CONSTRAINT "activity_suggestions_team_id_user_id_fkey" FOREIGN KEY ("team_id", "user_id") REFERENCES "users"("team_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
