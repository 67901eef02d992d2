import { describe, expect, it } from "vitest";
import { timezoneOptions } from "@/lib/domain/timezones";

describe("timezoneOptions", () => {
  it("offers every runtime zone, UTC first, and canonical names ICU lists under an alias", () => {
    const zones = timezoneOptions();
    expect(zones[0]).toBe("UTC");
    for (const z of Intl.supportedValuesOf("timeZone")) expect(zones).toContain(z);
    expect(zones).toContain("Asia/Kolkata");
    expect(zones).toContain("Europe/Kyiv");
    expect(new Set(zones).size).toBe(zones.length);
  });
  it("keeps the current value, leaves an invalid one out", () => {
    expect(timezoneOptions("Asia/Kolkata")).toContain("Asia/Kolkata");
    expect(timezoneOptions("Etc/GMT+5")).toContain("Etc/GMT+5");
    expect(timezoneOptions("Not/AZone")).not.toContain("Not/AZone");
  });
});
