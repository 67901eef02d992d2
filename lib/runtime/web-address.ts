/**
 * Where the running `npm start` serves HTTP, recorded in the data folder so that commands run
 * beside it (`npm run api-key`) can print a working URL instead of guessing port 3000.
 * The file `<data dir>/web-url` holds one line, e.g. `http://localhost:3400`; it is written when the
 * server is ready and removed when it stops. It is trusted only while the data folder's lock names
 * a live process (a crash can leave the file behind).
 */
import fs from "node:fs";
import path from "node:path";
import { dataDir, portSetting } from "@/lib/env";
import { readLiveLock } from "@/lib/runtime/embedded-postgres";

const FILE = "web-url";

/** Records the base URL of the running server (no trailing slash). */
export function recordWebUrl(url: string, dir = dataDir()): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, FILE), `${url}\n`);
}

/** Removes the record (on a clean stop). */
export function forgetWebUrl(dir = dataDir()): void {
  fs.rmSync(path.join(dir, FILE), { force: true });
}

/**
 * Base URL of the server to show in hints: `PORT` of the environment when set, else the URL the
 * running `npm start` recorded (while its lock is live), else http://localhost:3000.
 */
export function webUrlHint(env: Record<string, string | undefined> = { PORT: portSetting() }, dir = dataDir()): string {
  if (env.PORT) return `http://localhost:${env.PORT}`;
  const file = path.join(dir, FILE);
  if (readLiveLock(dir) && fs.existsSync(file)) {
    const url = fs.readFileSync(file, "utf8").trim();
    if (/^https?:\/\/\S+$/.test(url)) return url;
  }
  return "http://localhost:3000";
}
