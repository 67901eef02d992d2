import { describe, expect, it } from "vitest";
import { describeNextRun } from "@/components/standups/next-run";

const base = { state: "active", wait_time: 0, timezone: "Europe/Berlin" };

describe("describeNextRun", () => {
  it("shows the standup's zone and the viewer's time", () => {
    // 2026-11-23 08:30Z = 09:30 in Berlin (CET), 08:30 in London.
    const next_run_at = new Date("2026-11-23T08:30:00Z");
    expect(describeNextRun({ ...base, next_run_at }, "Europe/London")).toBe("Mon 23 Nov, 09:30 Europe/Berlin (08:30 your time)");
  });
  it("names the viewer's day when it differs, and leaves the viewer out when the clocks agree", () => {
    const next_run_at = new Date("2026-11-23T08:30:00Z");
    expect(describeNextRun({ ...base, next_run_at }, "America/Los_Angeles")).toBe("Mon 23 Nov, 09:30 Europe/Berlin (00:30 your time)");
    expect(describeNextRun({ ...base, next_run_at }, "Pacific/Honolulu")).toBe(
      "Mon 23 Nov, 09:30 Europe/Berlin (Sun 22 Nov, 22:30 your time)",
    );
    expect(describeNextRun({ ...base, next_run_at }, "Europe/Paris")).toBe("Mon 23 Nov, 09:30 Europe/Berlin");
  });
  it("works for zones ICU lists under an alias", () => {
    const next_run_at = new Date("2026-11-23T04:00:00Z");
    expect(describeNextRun({ ...base, timezone: "Asia/Kolkata", next_run_at }, "UTC")).toBe(
      "Mon 23 Nov, 09:30 Asia/Kolkata (04:00 your time)",
    );
  });
  it("says manual only, paused, draft or not scheduled", () => {
    const next_run_at = new Date("2026-11-23T08:30:00Z");
    expect(describeNextRun({ ...base, wait_time: null, next_run_at: null }, "UTC")).toBe("Manual only — runs when started");
    expect(describeNextRun({ ...base, state: "paused", next_run_at }, "UTC")).toBe("Paused");
    expect(describeNextRun({ ...base, state: "draft", next_run_at }, "UTC")).toBe("Draft — not scheduled");
    expect(describeNextRun({ ...base, next_run_at: null }, "UTC")).toBe("Not scheduled");
  });
});
