import type { ReactNode } from "react";
import { type MrkdwnNode, parseMrkdwn } from "@/lib/chat/mrkdwn";

function render(nodes: MrkdwnNode[]): ReactNode[] {
  return nodes.map((n, i) => {
    const key = `${i}-${n.type}`;
    switch (n.type) {
      case "text":
        return n.text;
      case "bold":
        return <strong key={key}>{render(n.children)}</strong>;
      case "italic":
        return <em key={key}>{render(n.children)}</em>;
      case "strike":
        return <s key={key}>{render(n.children)}</s>;
      case "code":
        return (
          <code key={key} className="rounded bg-slate-100 px-1 font-mono text-[0.9em]">
            {n.text}
          </code>
        );
      case "pre":
        return (
          <pre key={key} className="my-1 overflow-x-auto rounded bg-slate-100 p-2 font-mono text-xs">
            {n.text}
          </pre>
        );
      default:
        return (
          <a key={key} href={n.href} className="text-brand-700 underline" rel="noopener noreferrer" target="_blank">
            {render(n.children)}
          </a>
        );
    }
  });
}

/**
 * A message text written in Slack mrkdwn, shown formatted (bold, italic, strike, code, links) as
 * React elements; line breaks are kept by the container's `whitespace-pre-wrap`. See lib/chat/mrkdwn.ts.
 */
export function MrkdwnText({ text }: { text: string }) {
  return <>{render(parseMrkdwn(text))}</>;
}
