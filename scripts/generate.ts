/**
 * `npm run generate`: generates the Prisma client into lib/generated/prisma.
 * Prisma's CLI wants a schema-engine binary it cannot download here; `generate` never runs it,
 * so any existing file satisfies the check (ARCHITECTURE §5).
 */
import { spawnSync } from "node:child_process";

const r = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], {
  stdio: ["ignore", "inherit", "inherit"],
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
process.exit(r.status ?? 1);
