/**
 * `html=true` rendering of v1 report answers (compatibility.md "Query parsing (v1)"): the answer's
 * markdown is rendered with `marked` and the result is sanitized with `sanitize-html` down to
 * paragraphs, line breaks, links and emphasis.
 *
 * Raw HTML typed into an answer is never trusted: it is stripped (tags removed, text kept; script
 * and style elements removed with their content) before markdown runs, so an HTML block cannot
 * swallow the markdown around it (so a leading ">" stays literal text). Headings and list items
 * become paragraphs; other markup is reduced to its text. Links keep only http(s)/mailto hrefs and get rel="noopener noreferrer nofollow".
 */
import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

const markdown = new Marked({ gfm: true, breaks: true, async: false });

const STRIP_ALL: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {}, disallowedTagsMode: "discard" };

const BLOCK_TO_PARAGRAPH = ["h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "pre"] as const;

const SANITIZE_OUTPUT: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "a", "em", "strong"],
  allowedAttributes: { a: ["href", "title", "rel", "target"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    ...Object.fromEntries(BLOCK_TO_PARAGRAPH.map((tag) => [tag, "p"])),
    b: "strong",
    i: "em",
    a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow", target: "_blank" }),
  },
  exclusiveFilter: (frame) => frame.tag === "p" && !frame.text.trim(),
};

/**
 * Renders one answer (plain text / markdown, as members type it in chat) to safe HTML.
 * Empty input gives "". The output holds only p, br, a, em and strong elements.
 */
export function renderAnswerHtml(text: string): string {
  if (!text) return "";
  const withoutHtml = sanitizeHtml(text, STRIP_ALL);
  const rendered = markdown.parse(withoutHtml) as string;
  return sanitizeHtml(rendered, SANITIZE_OUTPUT)
    .replace(/\n{2,}/g, "\n")
    .trim();
}
