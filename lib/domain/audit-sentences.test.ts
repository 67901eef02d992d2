/** Audit log entries as sentences (issue 41 item 11): no raw codes such as `user.deactivate` or `user:13`. */
import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "@/lib/domain/audit";
import { AUDIT_ACTION_LABELS, describeAuditEntry } from "@/lib/domain/audit-sentences";

const names = new Map([
  [13, "Ada Lovelace"],
  [14, "Bob Builder"],
]);
const nameOf = (id: number) => names.get(id);

describe("audit sentences", () => {
  it("describes people actions with names instead of user ids", () => {
    expect(
      describeAuditEntry(
        { action: "user.deactivate", target: "user:13", details: { email: "ada@example.com", revokedApiKeys: 2, removedFromCheckins: 1 } },
        nameOf,
      ),
    ).toBe("deactivated Ada Lovelace (ada@example.com); 2 API keys revoked");
    expect(
      describeAuditEntry(
        { action: "user.role_change", target: "user:14", details: { email: "bob@example.com", from: "member", to: "admin" } },
        nameOf,
      ),
    ).toBe("changed the role of Bob Builder (bob@example.com) from member to admin");
    expect(
      describeAuditEntry(
        { action: "user.invite", target: "user:99", details: { email: "new@example.com", role: "member", emailed: false } },
        nameOf,
      ),
    ).toBe("invited new@example.com as member");
    expect(
      describeAuditEntry({ action: "api_key.revoke", target: "api_key:5", details: { prefix: "ck_ab12", owner: "user:13" } }, nameOf),
    ).toBe("revoked the API key ck_ab12… of Ada Lovelace");
  });

  it("describes channel actions and labels every action", () => {
    expect(
      describeAuditEntry(
        { action: "channel.members", target: "channel:3", details: { name: "general", added: [1, 2], removed: [3] } },
        nameOf,
      ),
    ).toBe("changed the members of #general: 2 people added, 1 person removed");
    expect(describeAuditEntry({ action: "channel.rename", target: "channel:3", details: { from: "dev", to: "engineering" } }, nameOf)).toBe(
      "renamed the channel #dev to #engineering",
    );
    for (const action of AUDIT_ACTIONS) {
      expect(AUDIT_ACTION_LABELS[action]).toMatch(/^[A-Z]/);
      expect(describeAuditEntry({ action, target: "user:13", details: {} }, nameOf)).not.toMatch(/user:\d|\w\.\w|_/);
    }
  });
});
