import { describe, expect, it } from "vitest";
import { timeForReader, timeInZone } from "@/lib/domain/message-times";

describe("times in messages people read (issue 41 item 9)", () => {
  const at = new Date("2026-11-30T09:15:00Z");
  it("a direct message says the reader's own time and day", () => {
    expect(timeForReader(at, "Europe/Berlin")).toBe("10:15 your time, Mon 30 Nov");
    expect(timeForReader(at, "Pacific/Honolulu")).toBe("23:15 your time, Sun 29 Nov");
    expect(timeForReader(at, "Not/AZone")).toBe("09:15 UTC, Mon 30 Nov");
  });
  it("a channel message names the zone it uses", () => {
    expect(timeInZone(at, "Europe/Berlin")).toBe("Mon 30 Nov, 10:15 Europe/Berlin");
    expect(timeInZone(at, "")).toBe("Mon 30 Nov, 09:15 UTC");
  });
});
