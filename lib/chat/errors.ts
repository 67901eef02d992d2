/**
 * Delivery errors thrown by chat adapters and understood by the delivery jobs (lib/chat/delivery.ts):
 * anything else is a transient failure retried with backoff.
 */

/** The platform refused in a way no retry can fix (unknown channel, revoked token...): mark `failed` now. */
export class PermanentDeliveryError extends Error {
  constructor(
    message: string,
    /** Platform error code, e.g. Slack's "channel_not_found". */
    readonly code: string,
  ) {
    super(message);
    this.name = "PermanentDeliveryError";
  }
}

/** The platform asked us to come back later (rate limit): retry after `retryAfterSeconds`. */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = "RetryLaterError";
  }
}
