import { db, type Tx } from "@/lib/db";

/**
 * Texts that JSON escaping must get right (the wire tests compare JSON built in SQL with
 * JSON.stringify): quotes, backslashes, control characters, DEL, non-BMP, U+2028/U+2029, markup.
 */
export const TRICKY = [
  'He said "ship it" \\ then left',
  "line one\nline two\r\n\ttabbed \b \f end",
  "control \u0001 \u001f and del \u007f",
  "emoji 🚀, accents éü, CJK 漢字, separators \u2028 \u2029",
  "<script>alert('x')</script> & </p>",
];

/**
 * `read` in a transaction whose session TimeZone is Asia/Kolkata (UTC+5:30): the wire texts built
 * in SQL must print the same instants and dates whatever the session's time zone.
 */
export function inKolkataSession<T>(read: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SET LOCAL TimeZone = 'Asia/Kolkata'`;
    return read(tx);
  });
}
