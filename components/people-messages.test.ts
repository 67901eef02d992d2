/** The dashboard's messages for people (issue 41 item 8): field named as labelled, what to do, no developer wording. */
import { describe, expect, it } from "vitest";
import { absenceMessage, bulkLineMessage, reportRangeError, reportWindowMessage, webhookUrlMessage } from "@/components/people-messages";

const DEVELOPER = /since|until|start_date|end_date|WEBHOOKS_ALLOW_PRIVATE|reversed|""/;

describe("messages for people", () => {
  it("reports a reversed Reports range on the To field", () => {
    expect(reportRangeError("2026-11-20", "2026-11-10")).toMatch(/^“To” is before “From”/);
    expect(reportRangeError("2026-11-10", "2026-11-10")).toBeNull();
    expect(reportRangeError(undefined, "2026-11-10")).toBeNull();
    expect(reportWindowMessage("since must not be after until (reversed range)")).not.toMatch(DEVELOPER);
    expect(reportWindowMessage("since must not be in the future (until defaults to now)")).toMatch(/^“From” is in the future/);
    expect(reportWindowMessage("The window from since to until must not exceed 90 days")).toMatch(/more than 90 days/);
  });

  it("rewrites absence errors to the Last day / First day fields", () => {
    expect(absenceMessage("end_date must not be before start_date")).toEqual({
      field: "endDate",
      message: "Last day: pick a day on or after the first day.",
    });
    expect(absenceMessage("start_date: expected a date YYYY-MM-DD").field).toBe("startDate");
    expect(absenceMessage("Only team admins can add absences of others")).toEqual({
      field: null,
      message: "Only team admins can add absences of others",
    });
  });

  it("rewrites refused webhook URLs without the environment variable", () => {
    const m = webhookUrlMessage("url: resolves to a loopback address (127.0.0.1); set WEBHOOKS_ALLOW_PRIVATE=true to allow it");
    expect(m).toMatch(/^Endpoint URL: this address leads to a private or local network \(127\.0\.0\.1\)/);
    expect(m).not.toMatch(DEVELOPER);
    expect(webhookUrlMessage("url: host nope.invalid does not resolve")).toMatch(/nope\.invalid was not found/);
    expect(webhookUrlMessage("Choose at least one event.")).toBeNull();
    // The calendar feed forms (issue 48) use the same rule in their own words.
    expect(
      webhookUrlMessage(
        "url: resolves to a loopback address (127.0.0.1); set WEBHOOKS_ALLOW_PRIVATE=true to allow it",
        "ICS address",
        "which calendars are not read from",
      ),
    ).toMatch(/^ICS address: this address leads to a private or local network \(127\.0\.0\.1\), which calendars are not read from\./);
  });

  it("explains a bulk-invite line without an e-mail address", () => {
    const m = bulkLineMessage(3, "", 'Not an e-mail address: ""');
    expect(m).toBe("Line 3: no e-mail address found. Add one (e.g. “Ada Lovelace, ada@example.com”) and invite again.");
    expect(m).not.toMatch(DEVELOPER);
    expect(bulkLineMessage(2, "bob@", 'Not an e-mail address: "bob@"')).toMatch(/^Line 2: “bob@” is not an e-mail address/);
    expect(bulkLineMessage(4, "ada@example.com", "Already a member")).toBe("Line 4: ada@example.com was not invited: already a member.");
  });
});
