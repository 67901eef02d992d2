/**
 * A reader of Slack mrkdwn (issue 41 item 9): the message texts the service posts are written for
 * Slack, where `*bold*`, `_italic_`, `~strike~`, `` `code` ``, ```` ```blocks``` ```` and
 * `<https://…|links>` are formatting. The built-in channel feed shows the same texts, so it parses
 * them here into a small tree that components/chat/mrkdwn-text.tsx renders as React elements (React
 * escapes every text; no HTML string is ever built). Rules follow Slack: a marker opens only at
 * the start or after a character that is not a letter or digit, is followed by a non-space, and
 * closes on the same line before a non-space and a non-letter-or-digit (so `snake_case_name` and
 * `2*3*4` stay as typed). Anything else is text as written; `&amp;`, `&lt;`, `&gt;` are decoded.
 * Links keep only http(s) and mailto targets.
 */

export type MrkdwnNode =
  | { type: "text"; text: string }
  | { type: "bold" | "italic" | "strike"; children: MrkdwnNode[] }
  | { type: "code" | "pre"; text: string }
  | { type: "link"; href: string; children: MrkdwnNode[] };

const EMPHASIS = { "*": "bold", _: "italic", "~": "strike" } as const;
const WORD = /[\p{L}\p{N}]/u;

/**
 * Text written as plain text, made safe for Slack's mrkdwn: `&`, `<` and `>` become entities
 * (Slack's rule), so an answer like "a < b" or "<script>" reads as typed and never as a link or
 * mention. The `*_~` markers stay: people use them as formatting.
 */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Decodes the three entities Slack escapes in message text. */
function decode(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function isSpace(ch: string | undefined): boolean {
  return ch === undefined || /\s/.test(ch);
}

/** Index of the marker closing an emphasis opened at `open`, or -1 (same line only). */
function closingMarker(s: string, open: number): number {
  const marker = s[open];
  for (let k = open + 2; k < s.length; k++) {
    if (s[k] === "\n") return -1;
    if (s[k] === marker && !isSpace(s[k - 1]) && !WORD.test(s[k + 1] ?? "")) return k;
  }
  return -1;
}

/**
 * A `<…>` token: a link, a mention as its raw text (`<@U1|ada>` → `@ada`, `<#C1|general>`, `<!here>`),
 * or null (not a token: plain text).
 */
function angleToken(inner: string): MrkdwnNode | null {
  const bar = inner.indexOf("|");
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? null : inner.slice(bar + 1);
  if (/^(https?:\/\/|mailto:)\S+$/i.test(target)) {
    const href = decode(target);
    return { type: "link", href, children: label ? parseMrkdwn(label) : [{ type: "text", text: href.replace(/^mailto:/i, "") }] };
  }
  if (/^@[UW][A-Z0-9]+$/.test(target)) return { type: "text", text: `@${label ?? target.slice(1)}` };
  if (/^#C[A-Z0-9]+$/.test(target)) return { type: "text", text: `#${label ?? target.slice(1)}` };
  if (/^!(here|channel|everyone)$/.test(target)) return { type: "text", text: `@${target.slice(1)}` };
  if (/^!date\^\d+\^/.test(target) && label) return { type: "text", text: label }; // <!date^…|fallback>
  return null;
}

/** Parses mrkdwn text into nodes (text nodes keep their line breaks). Never throws. */
export function parseMrkdwn(s: string): MrkdwnNode[] {
  const out: MrkdwnNode[] = [];
  let buf = "";
  const flush = () => {
    if (buf) out.push({ type: "text", text: decode(buf) });
    buf = "";
  };
  let i = 0;
  while (i < s.length) {
    const ch = s[i] as string;
    if (s.startsWith("```", i)) {
      const end = s.indexOf("```", i + 3);
      if (end > i + 3) {
        flush();
        out.push({ type: "pre", text: decode(s.slice(i + 3, end).replace(/^\n/, "")) });
        i = end + 3;
        continue;
      }
    } else if (ch === "`") {
      const end = s.indexOf("`", i + 1);
      if (end > i + 1 && !s.slice(i + 1, end).includes("\n")) {
        flush();
        out.push({ type: "code", text: decode(s.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    } else if (ch === "<") {
      const end = s.indexOf(">", i + 1);
      const token = end > i + 1 ? angleToken(s.slice(i + 1, end)) : null;
      if (token?.type === "text") {
        buf += token.text; // a mention reads as text: "@ada"
        i = end + 1;
        continue;
      }
      if (token) {
        flush();
        out.push(token);
        i = end + 1;
        continue;
      }
    } else if (ch in EMPHASIS && !WORD.test(s[i - 1] ?? "") && !isSpace(s[i + 1])) {
      const end = closingMarker(s, i);
      if (end > 0) {
        flush();
        out.push({ type: EMPHASIS[ch as keyof typeof EMPHASIS], children: parseMrkdwn(s.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    buf += ch;
    i++;
  }
  flush();
  return out;
}
