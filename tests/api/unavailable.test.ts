/**
 * Database unavailability (issue 13): real connection failures — a refused port and a backend
 * terminated with pg_terminate_backend — are recognised (lib/api/unavailable.ts) and answer 503
 * with `Retry-After` in the version's error shape; ordinary query errors stay 500-class bugs and
 * are not mistaken for outages. `retryOnceIfUnavailable` runs the work a second time only then.
 */
import net from "node:net";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { toErrorResponse } from "@/lib/api/errors";
import { isDatabaseUnavailable, retryOnceIfUnavailable } from "@/lib/api/unavailable";

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function refusedError(): Promise<unknown> {
  const client = new pg.Client({ connectionString: `postgresql://x:y@127.0.0.1:${await closedPort()}/db` });
  return client.connect().then(
    () => null,
    (err: unknown) => err,
  );
}

async function terminatedError(): Promise<unknown> {
  const victim = new pg.Client({ connectionString: process.env.DATABASE_URL });
  const killer = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await victim.connect();
  await killer.connect();
  victim.on("error", () => {});
  try {
    const { rows } = await victim.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    await killer.query("SELECT pg_terminate_backend($1)", [rows[0].pid]);
    return await victim.query("SELECT 1").then(
      () => null,
      (err: unknown) => err,
    );
  } finally {
    await killer.end();
    await victim.end().catch(() => {});
  }
}

describe("database unavailable", () => {
  it("a refused connection is 503 + Retry-After (v2 and v1 shapes)", async () => {
    const err = await refusedError();
    expect(isDatabaseUnavailable(err)).toBe(true);
    const v2 = toErrorResponse("v2", err);
    expect(v2.status).toBe(503);
    expect(v2.headers.get("retry-after")).toBe("5");
    expect(await v2.json()).toEqual({ error: { code: "SERVICE_UNAVAILABLE", message: expect.any(String) } });
    const v1 = toErrorResponse("v1", err);
    expect(v1.status).toBe(503);
    expect(await v1.json()).toEqual({ error: expect.any(String) });
  });

  it("a backend terminated by pg_terminate_backend is recognised", async () => {
    const err = await terminatedError();
    expect(err).not.toBeNull();
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it("an ordinary query error is not an outage", async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const err = await client.query("SELECT * FROM no_such_table").then(
      () => null,
      (e: unknown) => e,
    );
    await client.end();
    expect(isDatabaseUnavailable(err)).toBe(false);
    expect(toErrorResponse("v2", err).status).toBe(500);
  });

  it("retryOnceIfUnavailable repeats only after a connection failure, once", async () => {
    const lost = await terminatedError();
    let calls = 0;
    await expect(
      retryOnceIfUnavailable(async () => {
        calls++;
        if (calls === 1) throw lost;
        return "ok";
      }, 1),
    ).resolves.toBe("ok");
    expect(calls).toBe(2);
    calls = 0;
    await expect(
      retryOnceIfUnavailable(async () => {
        calls++;
        throw lost;
      }, 1),
    ).rejects.toBe(lost);
    expect(calls).toBe(2);
    calls = 0;
    await expect(
      retryOnceIfUnavailable(async () => {
        calls++;
        throw new Error("bug");
      }, 1),
    ).rejects.toThrow("bug");
    expect(calls).toBe(1);
  });
});
