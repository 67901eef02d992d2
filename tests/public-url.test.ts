/**
 * Issue 40 item 4: every e-mailed, chat-posted or printed link is built from PUBLIC_URL, never
 * from request headers. PUBLIC_URL is required once e-mail or Slack is configured (`npm start`
 * stops with one line naming it); without them it may stay unset and links use the service's own
 * address, so `npm start` with no environment keeps working.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { linkBaseUrl, publicUrlProblem } from "@/lib/env";

const KEYS = ["PUBLIC_URL", "SMTP_URL", "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN", "PORT"] as const;
const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});
function setEnv(values: Partial<Record<(typeof KEYS)[number], string>>): void {
  for (const k of KEYS) delete process.env[k];
  Object.assign(process.env, values);
}

describe("PUBLIC_URL", () => {
  it("may stay unset without e-mail and chat: links use http://localhost:$PORT", () => {
    setEnv({});
    expect(publicUrlProblem()).toBeNull();
    expect(linkBaseUrl()).toBe("http://localhost:3000");
    setEnv({ PORT: "3456" });
    expect(linkBaseUrl()).toBe("http://localhost:3456");
  });

  it("is the origin of links when set (trailing slashes dropped)", () => {
    setEnv({ PUBLIC_URL: "https://checkin.example.com/", SMTP_URL: "smtp://127.0.0.1:2525" });
    expect(publicUrlProblem()).toBeNull();
    expect(linkBaseUrl()).toBe("https://checkin.example.com");
  });

  it("is required with SMTP_URL or any Slack setting, with a one-line message naming the fix", () => {
    for (const env of [
      { SMTP_URL: "smtp://127.0.0.1:2525" },
      { SLACK_BOT_TOKEN: "xoxb-1" },
      { SLACK_SIGNING_SECRET: "s" },
      { SLACK_APP_TOKEN: "xapp-1" },
    ]) {
      setEnv(env);
      const problem = publicUrlProblem();
      expect(problem, JSON.stringify(env)).toMatch(/^PUBLIC_URL is required when \S+ is set .*PUBLIC_URL=https:\/\/checkin\.example\.com$/);
      expect(problem).toContain(Object.keys(env)[0]);
      expect(problem).not.toContain("\n");
    }
  });

  it("must be an http(s) address", () => {
    for (const bad of ["checkin.example.com", "ftp://checkin.example.com", "https://checkin.example.com/?x=1"]) {
      setEnv({ PUBLIC_URL: bad });
      expect(publicUrlProblem(), bad).toMatch(/^PUBLIC_URL must be the http:\/\/ or https:\/\/ address/);
    }
  });

  it("npm start stops at once with that line when SMTP_URL is set without PUBLIC_URL", async () => {
    const root = path.resolve(import.meta.dirname, "..");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "public-url-"));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, CHECKIN_DATA_DIR: dataDir, SMTP_URL: "smtp://127.0.0.1:2525" };
      delete env.PUBLIC_URL;
      const result = await promisify(execFile)(process.execPath, ["--import", "tsx", path.join(root, "scripts", "start.ts")], {
        cwd: root,
        env,
        timeout: 60_000,
      }).then(
        () => ({ code: 0, stderr: "" }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(/^PUBLIC_URL is required when SMTP_URL is set/);
      expect(fs.readdirSync(dataDir)).toEqual([]); // nothing was started
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
