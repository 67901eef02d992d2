/** Unit tests of the v1 `html=true` answer rendering (lib/api/v1/html.ts): markdown in, safe HTML out. */
import { describe, expect, it } from "vitest";
import { renderAnswerHtml } from "@/lib/api/v1/html";

describe("renderAnswerHtml", () => {
  it("renders paragraphs, line breaks and emphasis", () => {
    expect(renderAnswerHtml("Did **stuff** and _more_\nsecond line\n\nnew para")).toBe(
      "<p>Did <strong>stuff</strong> and <em>more</em><br />second line</p>\n<p>new para</p>",
    );
  });
  it("keeps http(s) and mailto links with a safe rel and drops other schemes", () => {
    const html = renderAnswerHtml(
      "[docs](https://example.com/a?b=1) [mail](mailto:x@example.com) [bad](javascript:alert(1)) [rel](//evil.example)",
    );
    expect(html).toContain('<a href="https://example.com/a?b=1" rel="noopener noreferrer nofollow" target="_blank">docs</a>');
    expect(html).toContain('href="mailto:x@example.com"');
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("evil.example");
  });
  it("autolinks bare URLs", () => {
    expect(renderAnswerHtml("see https://example.com ok")).toContain('<a href="https://example.com"');
  });
  it("strips scripts (with their content), event handlers, images, styles and iframes", () => {
    const html = renderAnswerHtml(
      '<script>alert(1)</script>hi <img src=x onerror="alert(2)"> <b onclick="x()">bold</b> <style>p{}</style><iframe src="https://x"></iframe> **ok**',
    );
    expect(html).not.toMatch(/<script|<img|<iframe|<style|onerror|onclick|alert/);
    expect(html).toContain("hi");
    expect(html).toContain("<strong>ok</strong>");
  });
  it("reduces headings, lists and code to paragraphs and text; a leading > stays literal", () => {
    expect(renderAnswerHtml("# Title\n- one\n- two\n\n`code`")).toBe("<p>Title</p>\n<p>one</p>\n<p>two</p>\n<p>code</p>");
    expect(renderAnswerHtml("> quoted")).toBe("<p>&gt; quoted</p>");
  });
  it("escapes special characters and handles empty input", () => {
    expect(renderAnswerHtml("a < b & c > d")).toBe("<p>a &lt; b &amp; c &gt; d</p>");
    expect(renderAnswerHtml("")).toBe("");
  });
});
