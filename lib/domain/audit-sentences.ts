/**
 * Audit log entries as sentences for people (issue 41 item 11: the log showed raw codes such as
 * `user.deactivate` and `user:13`). Pure functions over lib/domain/audit.ts entries.
 */
import type { AuditAction, AuditItem } from "@/lib/domain/audit";

/** A short label per action, for the audit log's filter. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "team.setup": "Team set up",
  "user.add": "Person added",
  "user.invite": "Person invited",
  "user.accept_invitation": "Invitation accepted",
  "user.role_change": "Role changed",
  "user.deactivate": "Person deactivated",
  "user.reactivate": "Person reactivated",
  "user.password_reset_link": "Password-reset link issued",
  "api_key.revoke": "API key revoked",
  "channel.create": "Channel created",
  "channel.rename": "Channel renamed",
  "channel.archive": "Channel archived",
  "channel.unarchive": "Channel unarchived",
  "channel.members": "Channel members changed",
  "slack.sync": "Slack synchronised",
  "team.privacy": "Anonymity threshold changed",
  "team.retention": "Retention changed",
  "retention.applied": "Retention applied",
  "user.erase": "Person's data erased",
  "user.export": "Person's data exported",
};

const ROLE_NAMES: Record<string, string> = { admin: "admin", manager: "manager", member: "member" };

/** Plural helper: "1 API key", "2 API keys". */
function count(n: unknown, one: string, many: string): string {
  const k = typeof n === "number" ? n : Array.isArray(n) ? n.length : 0;
  return `${k} ${k === 1 ? one : many}`;
}

/**
 * What an entry says, as a sentence without its subject (the page shows who did it before it),
 * e.g. "deactivated Ada Lovelace (ada@example.com); 2 API keys revoked".
 * @param nameOf the name of a team member by user id (undefined when unknown).
 */
export function describeAuditEntry(
  entry: Pick<AuditItem, "action" | "target" | "details">,
  nameOf: (userId: number) => string | undefined,
): string {
  const d = (entry.details && typeof entry.details === "object" ? entry.details : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");
  const userRef = (ref: unknown) => {
    const id = /^user:(\d+)$/.exec(str(ref))?.[1];
    return id ? nameOf(Number(id)) : undefined;
  };
  const who = (() => {
    const name = userRef(entry.target);
    const email = str(d.email);
    if (name && email) return `${name} (${email})`;
    return name || email || "a person";
  })();
  const role = (v: unknown) => ROLE_NAMES[str(v)] ?? (str(v) || "member");
  switch (entry.action as AuditAction) {
    case "team.setup":
      return `set up the team${d.name ? ` “${str(d.name)}”` : ""}`;
    case "user.add":
      return `added ${who}`;
    case "user.invite":
      return `${d.reinvite ? "invited again" : "invited"} ${who} as ${role(d.role)}${d.emailed ? " (invitation e-mailed)" : ""}`;
    case "user.accept_invitation":
      return "accepted the invitation and joined the team";
    case "user.role_change":
      return `changed the role of ${who} from ${role(d.from)} to ${role(d.to)}`;
    case "user.deactivate":
      return `deactivated ${who}; ${count(d.revokedApiKeys, "API key", "API keys")} revoked`;
    case "user.reactivate":
      return `reactivated ${who}`;
    case "user.password_reset_link":
      return `issued a password-reset link for ${who}`;
    case "api_key.revoke": {
      const owner = userRef(d.owner);
      return `revoked the API key ${str(d.prefix) ? `${str(d.prefix)}…` : ""}${owner ? ` of ${owner}` : ""}`.replace(/ {2,}/g, " ").trim();
    }
    case "channel.create":
      return `created the channel #${str(d.name)}`;
    case "channel.rename":
      return `renamed the channel #${str(d.from)} to #${str(d.to)}`;
    case "channel.archive":
      return `archived the channel #${str(d.name)}`;
    case "channel.unarchive":
      return `unarchived the channel #${str(d.name)}`;
    case "channel.members":
      return `changed the members of #${str(d.name)}: ${count(d.added, "person", "people")} added, ${count(d.removed, "person", "people")} removed`;
    case "slack.sync":
      return "synchronised the team with Slack";
    case "team.privacy": {
      const k = (d.anonymity_threshold ?? {}) as Record<string, unknown>;
      return `changed the anonymity threshold from ${str(k.from)} to ${str(k.to)} answers`;
    }
    case "team.retention":
      return "changed how long answers and the audit log are kept";
    case "retention.applied":
      return "applied the team's retention to old answers and entries";
    case "user.erase":
      return `erased the data of ${who}`;
    case "user.export":
      return `exported the data of ${who}`;
    default:
      return `${entry.action}${entry.target ? ` (${entry.target})` : ""}`;
  }
}
