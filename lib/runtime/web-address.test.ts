import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { forgetWebUrl, recordWebUrl, webUrlHint } from "@/lib/runtime/web-address";

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "web-address-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("webUrlHint (the URL `npm run api-key` prints)", () => {
  it("uses PORT of the environment first", () => {
    const dir = tempDir();
    recordWebUrl("http://localhost:3400", dir);
    expect(webUrlHint({ PORT: "4100" }, dir)).toBe("http://localhost:4100");
  });
  it("uses the URL recorded by the running server while its lock is live", () => {
    const dir = tempDir();
    recordWebUrl("http://localhost:3400", dir);
    expect(webUrlHint({}, dir)).toBe("http://localhost:3000"); // no lock: a leftover of a crash is not trusted
    fs.writeFileSync(
      path.join(dir, "server.lock"),
      JSON.stringify({ pid: process.pid, port: 5432, started_at: new Date().toISOString(), purpose: "npm start" }),
    );
    expect(webUrlHint({}, dir)).toBe("http://localhost:3400");
    forgetWebUrl(dir);
    expect(webUrlHint({}, dir)).toBe("http://localhost:3000");
  });
});
