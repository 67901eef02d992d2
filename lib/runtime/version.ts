/**
 * The version this service runs (issue 44, Settings → System): package.json's version (SemVer,
 * CHANGELOG.md) and the git commit, captured once per process.
 */
import { execFileSync } from "node:child_process";
import { commitSetting } from "@/lib/env";

let commitAtStart: string | null | undefined;

/**
 * The commit this process runs: `CHECKIN_COMMIT` (set it when building an image without `.git`;
 * the service sets it for the web server it starts, lib/runtime/service-children.ts), else
 * `git rev-parse --short=12 HEAD` in `root`, read on the first call; null when neither is available.
 */
export function runningCommit(root = process.cwd()): string | null {
  if (commitAtStart !== undefined) return commitAtStart;
  commitAtStart = commitSetting() ?? null;
  if (!commitAtStart) {
    try {
      const out = String(
        execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: root, timeout: 2000, stdio: ["ignore", "pipe", "ignore"] }),
      ).trim();
      commitAtStart = /^[0-9a-f]{7,40}$/.test(out) ? out : null;
    } catch {
      commitAtStart = null;
    }
  }
  return commitAtStart;
}
