/**
 * Chat message ids (`ts`, spec §2 `chat_ts`): `${unixSeconds}.${6 digits}` like the chat platform's
 * message timestamps, e.g. "1767603600.123456".
 */

import { processState } from "@/lib/runtime/process-state";

/** The last id given out, one per process (lib/runtime/process-state.ts), not one per bundled copy. */
const last = processState("__checkinChatTs", () => ({ seconds: 0, micros: -1 }));

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
