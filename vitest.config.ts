/**
 * Vitest configuration: unit tests live beside the code (`*.test.ts`), integration tests run
 * against a real PostgreSQL that tests/global-setup.ts starts once per run (embedded, throwaway)
 * and hands to every test file through `inject("databaseUrl")` (tests/setup.ts).
 * Test files create their own team and data, so they run in parallel (forks pool).
 */
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@": path.resolve(import.meta.dirname) },
  },
  test: {
    environment: "node",
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/.next/**", "e2e/**", ".data/**", "lib/generated/**"],
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup.ts"],
    reporters: ["default", "./tests/slowest-files-reporter.ts"],
    pool: "forks",
    fileParallelism: true,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
