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
