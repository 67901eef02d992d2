/**
 * The built-in channel feed shows messages written for Slack as Slack shows them (issue 41 item 9):
 * mrkdwn rendered as elements (no literal `*asterisks*`), no HTML from the text, and each kind
 * labelled for people (not `poll_results`).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChannelMessage } from "@/components/chat/channel-message";
import { MrkdwnText } from "@/components/chat/mrkdwn-text";
import { parseMrkdwn } from "@/lib/chat/mrkdwn";
import type { FeedMessage } from "@/lib/domain/channel-feed";

const html = (text: string) => renderToStaticMarkup(createElement(MrkdwnText, { text }));

const message = (over: Partial<FeedMessage>): FeedMessage => ({
  id: 1,
  ts: "1.000001",
  kind: "report",
  channel: { chatId: "C1", name: "general" },
  text: "",
  createdAt: new Date("2026-11-30T09:15:00Z"),
  updatedAt: new Date("2026-11-30T09:15:00Z"),
  deliveryState: "delivered",
  deliveryError: null,
  checkinName: "Daily",
  ...over,
});

describe("Slack mrkdwn in the built-in feed", () => {
  it("renders bold, italic, strike, code, blocks and links as elements", () => {
    expect(html("*Done* _today_ ~old~ `npm test`")).toBe(
      "<strong>Done</strong> <em>today</em> <s>old</s> " + '<code class="rounded bg-slate-100 px-1 font-mono text-[0.9em]">npm test</code>',
    );
    expect(html("see <https://x.test/a?b=1&amp;c=2|the *plan*> and <mailto:ada@acme.test>")).toBe(
      'see <a href="https://x.test/a?b=1&amp;c=2" class="text-brand-700 underline" rel="noopener noreferrer" target="_blank">the <strong>plan</strong></a>' +
        ' and <a href="mailto:ada@acme.test" class="text-brand-700 underline" rel="noopener noreferrer" target="_blank">ada@acme.test</a>',
    );
    expect(parseMrkdwn("```\nline 1\n*not bold*```")).toEqual([{ type: "pre", text: "line 1\n*not bold*" }]);
    expect(parseMrkdwn("*bold _and italic_*")).toEqual([
      {
        type: "bold",
        children: [
          { type: "text", text: "bold " },
          { type: "italic", children: [{ type: "text", text: "and italic" }] },
        ],
      },
    ]);
    expect(parseMrkdwn("<@U12AB|ada> in <#C9X|general> <!here>")).toEqual([{ type: "text", text: "@ada in #general @here" }]);
    expect(parseMrkdwn("closes <!date^1921130100^{time}|Sat 30 Nov, 10:15 Europe/Berlin>")).toEqual([
      { type: "text", text: "closes Sat 30 Nov, 10:15 Europe/Berlin" },
    ]);
  });

  it("leaves text that is not formatting as written", () => {
    for (const text of [
      "snake_case_name",
      "2*3*4 = 24",
      "a * b * c",
      "* item\n* item",
      "*open\nclose*",
      "x < y > z",
      "<javascript:alert(1)|click>",
    ])
      expect(parseMrkdwn(text), text).toEqual([{ type: "text", text }]);
    expect(html("<b>hi</b> & <script>alert(1)</script>")).toBe("&lt;b&gt;hi&lt;/b&gt; &amp; &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(parseMrkdwn("1 &lt; 2 &amp;&amp; 3 &gt; 2")).toEqual([{ type: "text", text: "1 < 2 && 3 > 2" }]);
  });

  it("a feed message shows its text formatted and its kind labelled for people", () => {
    const report = renderToStaticMarkup(
      createElement(ChannelMessage, { m: message({ text: "Ada posted an update\n\n*Yesterday*\nShipped _the_ fix" }), timezone: "UTC" }),
    );
    expect(report).toContain("<strong>Yesterday</strong>\nShipped <em>the</em> fix");
    expect(report).not.toContain("*Yesterday*");
    const results = renderToStaticMarkup(
      createElement(ChannelMessage, { m: message({ kind: "poll_results", text: 'Poll "Lunch" closed' }), timezone: "UTC" }),
    );
    expect(results).toContain("Poll results");
    expect(results).not.toContain("poll_results");
  });
});
