/**
 * Unit tests of the v2 cursor codec (lib/api/cursor.ts, spec §4.1): round trip, binding to
 * filters, and rejection of garbage, tampered and replayed-with-other-filters cursors with
 * INVALID_PARAMETER. Also the query helpers the list endpoints build on (lib/api/query.ts).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { decodeCursor, encodeCursor } from "@/lib/api/cursor";
import { parseDateValue, parseWith, zCsvSet, zLimit } from "@/lib/api/query";
import { checkinListQuerySchema, toCheckinListFilters } from "@/lib/api/v2/standups";
import { DomainError } from "@/lib/domain/errors";

const binding = { e: "v2.reports", since: "2026-01-01T00:00:00.000Z", until: null, standup_id: 4 };
const expectInvalid = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe("INVALID_PARAMETER");
    return;
  }
  throw new Error("expected INVALID_PARAMETER");
};

describe("encodeCursor / decodeCursor", () => {
  it("round-trips a position for the same binding", () => {
    const c = encodeCursor(["2026-01-02T03:04:05.000Z", 42], binding);
    expect(c).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c, binding)).toEqual(["2026-01-02T03:04:05.000Z", 42]);
  });

  it("the binding is order-insensitive and ignores undefined keys", () => {
    const c = encodeCursor([1], { a: 1, b: [1, 2], c: undefined });
    expect(decodeCursor(c, { b: [1, 2], a: 1 })).toEqual([1]);
  });

  it("rejects a cursor replayed with other filters", () => {
    const c = encodeCursor([1], binding);
    expectInvalid(() => decodeCursor(c, { ...binding, standup_id: 5 }));
    expectInvalid(() => decodeCursor(c, { ...binding, until: "2026-01-03T00:00:00.000Z" }));
    expectInvalid(() => decodeCursor(c, { ...binding, e: "v2.standups" }));
  });

  it("rejects garbage and tampering", () => {
    const c = encodeCursor(["2026-01-02T03:04:05.000Z", 42], binding);
    const [payload, sig] = c.split(".");
    const forged = Buffer.from(
      JSON.stringify({ p: ["2030-01-01T00:00:00.000Z", 1], b: JSON.parse(Buffer.from(payload, "base64url").toString()).b }),
    ).toString("base64url");
    for (const bad of [
      "",
      "x",
      "x.y",
      "a.b.c",
      `${payload}`,
      `${payload}.`,
      `.${sig}`,
      `${forged}.${sig}`,
      `${payload}.${sig}x`,
      `${payload}x.${sig}`,
      `${c}.${sig}`,
    ]) {
      expectInvalid(() => decodeCursor(bad, binding));
    }
  });
});

describe("standup list cursor binding", () => {
  const parse = (qs: string) => parseWith(checkinListQuerySchema, Object.fromEntries(new URLSearchParams(qs)));

  it("binds every filter but not limit or include", () => {
    const { binding: b } = toCheckinListFilters(parse("state=active&created_since=2026-01-01"), "v2.standups");
    const c = encodeCursor(["2026-01-05T00:00:00.000Z", 9], b);
    const ok = toCheckinListFilters(
      parse(`state=active&created_since=2026-01-01T00:00:00Z&limit=3&include=questions&cursor=${c}`),
      "v2.standups",
    );
    expect(ok.filters.after).toEqual({ createdAt: new Date("2026-01-05T00:00:00.000Z"), id: 9 });
    expect(ok.filters.limit).toBe(3);
    for (const qs of [
      "state=active",
      "state=active&created_since=2026-01-02",
      "created_since=2026-01-01",
      "state=active&created_since=2026-01-01&is_anonymous=true",
    ]) {
      expectInvalid(() => toCheckinListFilters(parse(`${qs}&cursor=${c}`), "v2.standups"));
    }
    expectInvalid(() => toCheckinListFilters(parse(`state=active&created_since=2026-01-01&cursor=${c}`), "v2.polls"));
  });

  it("rejects a validly signed cursor with a malformed position", () => {
    const { binding: b } = toCheckinListFilters(parse(""), "v2.standups");
    for (const p of [["not a date", 1], ["2026-01-01T00:00:00.000Z", "1"], ["2026-01-01T00:00:00.000Z", 1, 2], []]) {
      expectInvalid(() => toCheckinListFilters(parse(`cursor=${encodeCursor(p, b)}`), "v2.standups"));
    }
  });
});

describe("query helpers", () => {
  it("parseDateValue: ISO 8601 and YYYY-MM-DD; invalid → null", () => {
    expect(parseDateValue("2026-01-05")).toEqual(new Date("2026-01-05T00:00:00Z"));
    expect(parseDateValue("2026-01-05T10:00:00Z")).toEqual(new Date("2026-01-05T10:00:00Z"));
    expect(parseDateValue("2026-01-05T10:00:00+02:00")).toEqual(new Date("2026-01-05T08:00:00Z"));
    expect(parseDateValue("2026-01-05T10:00")).toEqual(new Date("2026-01-05T10:00:00Z"));
    for (const bad of ["", "yesterday", "2026-02-30", "2026-13-01", "05/01/2026", "1704067200"]) expect(parseDateValue(bad)).toBeNull();
  });

  it("zLimit: 1..100 with a default", () => {
    const s = z.object({ limit: zLimit(25) });
    expect(parseWith(s, {}).limit).toBe(25);
    expect(parseWith(s, { limit: "1" }).limit).toBe(1);
    expect(parseWith(s, { limit: "100" }).limit).toBe(100);
    for (const bad of ["0", "101", "abc", "-1", "1.5", ""]) expectInvalid(() => parseWith(s, { limit: bad }));
  });

  it("zCsvSet: subset of allowed values", () => {
    const s = zCsvSet(["a", "b"] as const, "x");
    expect([...parseWith(s, "a, b,a")]).toEqual(["a", "b"]);
    expectInvalid(() => parseWith(s, "a,c"));
  });
});
