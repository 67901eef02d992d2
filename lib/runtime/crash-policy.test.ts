/**
 * The crash policy (issue 40): an unhandled rejection (graphile-worker's unawaited job completion
 * on a terminated connection) is logged and the process keeps serving; an uncaught exception is
 * logged, cleaned up after and ends the process with CRASH_EXIT_CODE for its supervisor, never
 * silently.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CRASH_EXIT_CODE } from "@/lib/runtime/crash-policy";

const root = path.resolve(import.meta.dirname, "../..");

function run(mode: "reject" | "throw") {
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "tests/fakes/crash-policy-process.ts"), mode], {
    cwd: root,
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

describe("crash policy", () => {
  it("logs an unhandled rejection with its code and keeps serving", () => {
    const r = run("reject");
    expect(r.output).toContain("test: unhandled promise rejection (logged; the process keeps serving)");
    expect(r.output).toContain("terminating connection due to administrator command");
    expect(r.output).toContain("code 57P01");
    expect(r.output).toContain("still serving");
    expect(r.code).toBe(0);
  });

  it("logs an uncaught exception, cleans up and exits to be restarted", () => {
    const r = run("throw");
    expect(r.output).toContain(`test: uncaught exception, exiting with code ${CRASH_EXIT_CODE} to be restarted`);
    expect(r.output).toContain("Error: boom");
    expect(r.output).toContain("cleaning up");
    expect(r.output).not.toContain("still serving");
    expect(r.code).toBe(CRASH_EXIT_CODE);
  });
});
