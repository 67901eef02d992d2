/** The bench:* scripts' numeric settings (scripts/lib/bench-settings.ts). */
import { afterEach, describe, expect, it } from "vitest";
import { benchNumber } from "@/scripts/lib/bench-settings";

const NAME = "BENCH_SETTINGS_TEST_VALUE";

afterEach(() => {
  delete process.env[NAME];
});

describe("benchNumber", () => {
  it.each([
    ["unset", undefined, 7],
    ["empty", "", 7],
    ["set", "20000", 20_000],
    ["a decimal", "0.5", 0.5],
  ])("reads the variable when %s", (_case, raw, expected) => {
    if (raw !== undefined) process.env[NAME] = raw;
    expect(benchNumber(NAME, 7)).toBe(expected);
  });

  it.each(["20k", "-1", "Infinity"])("refuses %s, naming the variable", (raw) => {
    process.env[NAME] = raw;
    expect(() => benchNumber(NAME, 7)).toThrow(`${NAME} must be a non-negative number, got "${raw}"`);
  });
});
