/**
 * Transport-neutral domain errors. The domain throws these; lib/api/errors.ts maps each code to an
 * HTTP status and body (spec §7 for v2, compatibility.md for v1). Never throw HTTP from the domain.
 */
export type DomainErrorCode =
  | "NOT_FOUND"
  | "INVALID_PARAMETER"
  | "CHANNEL_NOT_FOUND"
  | "USER_NOT_FOUND"
  | "FORBIDDEN"
  | "UNPROCESSABLE"
  | "CONFLICT";

export class DomainError extends Error {
  /**
   * @param detailCode a more precise public code for the same status (e.g. `POLL_CLOSED` for a
   *   CONFLICT); v2 bodies carry it instead of `code`.
   */
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly detailCode?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** The resource does not exist or is not visible to the caller (existence is never leaked). */
export class NotFoundError extends DomainError {
  constructor(what = "Resource") {
    super("NOT_FOUND", `${what} not found`);
  }
}

/** Validation failure of a parameter or body field. */
export class InvalidParameterError extends DomainError {
  constructor(message: string) {
    super("INVALID_PARAMETER", message);
  }
}

export class ChannelNotFoundError extends DomainError {
  constructor(channel: string) {
    super("CHANNEL_NOT_FOUND", `Channel not found: ${channel}`);
  }
}

/** How many unknown ids a USER_NOT_FOUND message names (issue 40: 1,000 ids made a 12 KB answer). */
export const USER_NOT_FOUND_LISTED = 20;
/** Longest id the message quotes in full (longer ones are cut, with "…"). */
const LISTED_ID_LENGTH = 64;

/**
 * Users unknown to the team (spec §7: 400 `USER_NOT_FOUND`). The message names the first
 * `USER_NOT_FOUND_LISTED` ids, each cut to 64 characters, then "and N more".
 */
export class UserNotFoundError extends DomainError {
  constructor(ids: Array<string | number>) {
    const listed = ids
      .slice(0, USER_NOT_FOUND_LISTED)
      .map(String)
      .map((id) => (id.length > LISTED_ID_LENGTH ? `${id.slice(0, LISTED_ID_LENGTH)}…` : id));
    const more = ids.length > listed.length ? ` and ${ids.length - listed.length} more` : "";
    super("USER_NOT_FOUND", `User(s) not found in this team: ${listed.join(", ")}${more}`);
  }
}

/** The caller may see the resource but not change it (v1 answers 401 for this). */
export class ForbiddenError extends DomainError {
  constructor(message = "You are not allowed to change this resource") {
    super("FORBIDDEN", message);
  }
}

/** The operation cannot be done on this resource (e.g. duplicating a confidential standup). */
export class UnprocessableError extends DomainError {
  constructor(message: string, detailCode?: string) {
    super("UNPROCESSABLE", message, detailCode);
  }
}

/** The change conflicts with the current state (e.g. voting on a closed poll: `POLL_CLOSED`; an e-mail already in the team). */
export class ConflictError extends DomainError {
  constructor(message: string, detailCode?: string) {
    super("CONFLICT", message, detailCode);
  }
}
