/**
 * A local ICS calendar server for tests (issue 48 "Tests"): serves iCalendar feeds on 127.0.0.1
 * like Google's secret addresses or Outlook's published calendars do — `text/calendar`, a strong
 * `ETag` per content (it changes when the feed changes) and `304 Not Modified` to a matching
 * `If-None-Match`. `/slow/...` answers only after `slowMs`; `/huge.ics` streams `hugeBytes` of
 * valid-looking iCalendar. Every request is recorded (path, If-None-Match, status).
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type IcsRequest = { path: string; ifNoneMatch: string | null; status: number };

export type IcsServer = {
  /** Base URL, e.g. http://127.0.0.1:PORT */
  url: string;
  requests: IcsRequest[];
  /** Sets (or replaces: a new ETag) the feed at `path` ("/alice.ics"). */
  setFeed: (path: string, body: string) => void;
  close: () => Promise<void>;
};

/** Builds an iCalendar text from VEVENT/VTIMEZONE blocks (CRLF line ends, as RFC 5545 requires). */
export function ics(...blocks: string[]): string {
  return ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//checkin tests//ics fake//EN", ...blocks, "END:VCALENDAR", ""].join("\r\n");
}

/** One VEVENT from property lines ("SUMMARY:Vacation", "DTSTART;VALUE=DATE:20261130", ...). */
export function vevent(uid: string, ...lines: string[]): string {
  return ["BEGIN:VEVENT", `UID:${uid}`, "DTSTAMP:20261101T000000Z", ...lines, "END:VEVENT"].join("\r\n");
}

/** The VTIMEZONE of Europe/Berlin (CET/CEST), as Google Calendar exports it. */
export const BERLIN_VTIMEZONE = [
  "BEGIN:VTIMEZONE",
  "TZID:Europe/Berlin",
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "TZNAME:CEST",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "TZNAME:CET",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
].join("\r\n");

export async function startIcsServer(opts: { slowMs?: number; hugeBytes?: number } = {}): Promise<IcsServer> {
  const feeds = new Map<string, { body: string; etag: string }>();
  const requests: IcsRequest[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const ifNoneMatch = (req.headers["if-none-match"] as string | undefined) ?? null;
    const done = (status: number) => requests.push({ path, ifNoneMatch, status });
    if (path === "/huge.ics") {
      done(200);
      res.writeHead(200, { "content-type": "text/calendar" });
      const chunk = `${vevent("x", "SUMMARY:filler", "DTSTART;VALUE=DATE:20261201")}\r\n`.repeat(100);
      let sent = 0;
      const total = opts.hugeBytes ?? 8 * 1024 * 1024;
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("error", () => {});
      res.write("BEGIN:VCALENDAR\r\n");
      pump();
      return;
    }
    const slow = path.startsWith("/slow/");
    const feed = feeds.get(slow ? path.slice(5) : path);
    const answer = () => {
      if (!feed) {
        done(404);
        res.writeHead(404).end();
      } else if (ifNoneMatch === feed.etag) {
        done(304);
        res.writeHead(304, { etag: feed.etag }).end();
      } else {
        done(200);
        res.writeHead(200, { "content-type": "text/calendar; charset=utf-8", etag: feed.etag }).end(feed.body);
      }
    };
    if (slow) setTimeout(answer, opts.slowMs ?? 3000).unref();
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setFeed: (path, body) => feeds.set(path, { body, etag: `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"` }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
