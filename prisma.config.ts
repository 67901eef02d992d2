/**
 * Prisma CLI configuration (Prisma 7). Only `prisma generate` is used on these machines: the
 * migration engine cannot be downloaded here, so migrations are SQL files applied by
 * scripts/migrate.ts (ARCHITECTURE §5). On a machine with internet, `prisma migrate deploy`
 * and `prisma migrate status` read the same folder and agree with it.
 */
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/unused" },
});
