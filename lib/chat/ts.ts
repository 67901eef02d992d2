/**
 * Chat message ids (`ts`, spec §2 `chat_ts`): `${unixSeconds}.${6 digits}` like the chat platform's
 * message timestamps, e.g. "1767603600.123456".
 */

/**
 * The last id given out, on globalThis: Next.js bundles this module into several route chunks, and
 * module-level variables would give each copy its own counter (lib/db.ts explains the same for the pool).
 */
const globalForTs = globalThis as unknown as { __checkinChatTs?: { seconds: number; micros: number } };
globalForTs.__checkinChatTs ??= { seconds: 0, micros: -1 };
const last = globalForTs.__checkinChatTs;

/**
 * A new message id for `now` (default: the current time). Unique within this process (a monotonic
 * counter bumps the fractional part; it rolls into the next second when a second is exhausted), and
 * unique across processes with high probability: the fractional part is the current millisecond plus
 * three random digits, so two processes collide only when they pick the same random digits in the
 * same millisecond. The `chat_messages.ts` unique constraint is the final guard.
 */
export function newChatTs(now: Date = new Date()): string {
  const ms = now.getTime();
  let seconds = Math.floor(ms / 1000);
  let micros = (ms % 1000) * 1000 + Math.floor(Math.random() * 1000);
  if (seconds < last.seconds || (seconds === last.seconds && micros <= last.micros)) {
    seconds = last.seconds;
    micros = last.micros + 1;
    if (micros > 999_999) {
      seconds += 1;
      micros = 0;
    }
  }
  last.seconds = seconds;
  last.micros = micros;
  return `${seconds}.${String(micros).padStart(6, "0")}`;
}
