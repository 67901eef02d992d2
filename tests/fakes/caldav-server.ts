/**
 * A local CalDAV server for tests (issue 48 "Tests"), speaking the protocol as Nextcloud, Fastmail
 * or Radicale do, for one account with Basic authentication (401 with `WWW-Authenticate` on a
 * wrong password):
 * - `/.well-known/caldav` → 301 to `/dav/` (service discovery);
 * - PROPFIND `/dav/` → `current-user-principal` `/dav/principals/<user>/`;
 * - PROPFIND the principal → `calendar-home-set` `/dav/calendars/<user>/`;
 * - PROPFIND the home (Depth 1) → the home and each calendar (`displayname`, `resourcetype`
 *   calendar, `supported-calendar-component-set` VEVENT, `getctag` that changes with its events);
 *   PROPFIND a calendar (Depth 0) → its `supported-report-set` (calendar-query, calendar-multiget);
 * - REPORT calendar-query on a calendar → multistatus of its objects with `getetag` (per content)
 *   and `calendar-data`. The time range the client sent is recorded; every object is returned
 *   (a superset, which clients must accept).
 * `setReportDelay(ms)` makes REPORT answers wait (a slow server). Every request is recorded
 * (method, path, depth, whether authorized, status).
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type CalDavRequest = {
  method: string;
  path: string;
  depth: string | null;
  authorized: boolean;
  status: number;
  timeRange: string | null;
};

export type CalDavServer = {
  /** Base URL, e.g. http://127.0.0.1:PORT */
  url: string;
  requests: CalDavRequest[];
  /** Sets (or replaces) a calendar's objects, each an iCalendar text; its ctag and ETags follow the content. */
  setCalendar: (name: string, objects: Record<string, string>) => void;
  /** Delays every REPORT answer by `ms` (0: none). */
  setReportDelay: (ms: number) => void;
  close: () => Promise<void>;
};

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function tag(text: string): string {
  return `"${createHash("sha256").update(text).digest("hex").slice(0, 16)}"`;
}

const NS = 'xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/"';

function multistatus(responses: string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus ${NS}>${responses.join("")}</d:multistatus>`;
}

function response(href: string, props: string): string {
  return `<d:response><d:href>${esc(href)}</d:href><d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
}

/** Starts the fake on 127.0.0.1 for `username` / `password`. */
export async function startCalDavServer(opts: { username: string; password: string }): Promise<CalDavServer> {
  const calendars = new Map<string, Map<string, string>>();
  const requests: CalDavRequest[] = [];
  let reportDelayMs = 0;
  const principal = `/dav/principals/${opts.username}/`;
  const home = `/dav/calendars/${opts.username}/`;
  const expected = `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString("base64")}`;

  const ctagOf = (objects: Map<string, string>) => tag([...objects].map(([k, v]) => `${k}\n${v}`).join("\n"));

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = decodeURIComponent((req.url ?? "/").split("?")[0]);
      const method = req.method ?? "GET";
      const depth = (req.headers.depth as string | undefined) ?? null;
      const authorized = req.headers.authorization === expected;
      const range = /<[a-z]*:?time-range[^>]*start="([^"]+)"[^>]*end="([^"]+)"/i.exec(body);
      const send = (status: number, xml?: string, headers: Record<string, string> = {}) => {
        requests.push({ method, path, depth, authorized, status, timeRange: range ? `${range[1]}/${range[2]}` : null });
        res.writeHead(status, xml ? { "content-type": "application/xml; charset=utf-8", ...headers } : headers).end(xml);
      };
      if (path === "/.well-known/caldav") return send(301, undefined, { location: "/dav/" });
      if (!authorized) return send(401, undefined, { "www-authenticate": 'Basic realm="fake caldav"' });
      if (method === "PROPFIND" && (path === "/dav/" || path === "/dav" || path === "/")) {
        return send(
          207,
          multistatus([response(path, `<d:current-user-principal><d:href>${principal}</d:href></d:current-user-principal>`)]),
        );
      }
      if (method === "PROPFIND" && path === principal) {
        return send(207, multistatus([response(principal, `<c:calendar-home-set><d:href>${home}</d:href></c:calendar-home-set>`)]));
      }
      if (method === "PROPFIND" && path === home) {
        const items = [response(home, "<d:resourcetype><d:collection/></d:resourcetype>")];
        for (const [name, objects] of calendars) {
          items.push(
            response(
              `${home}${name}/`,
              `<d:displayname>${esc(name)}</d:displayname><d:resourcetype><d:collection/><c:calendar/></d:resourcetype>` +
                `<c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set><cs:getctag>${ctagOf(objects)}</cs:getctag>`,
            ),
          );
        }
        return send(207, multistatus(items));
      }
      const name = path.startsWith(home) ? path.slice(home.length).replace(/\/$/, "") : "";
      const objects = calendars.get(name);
      if (!objects) return send(404);
      if (method === "PROPFIND") {
        return send(
          207,
          multistatus([
            response(
              path,
              "<d:supported-report-set><d:supported-report><d:report><c:calendar-query/></d:report></d:supported-report>" +
                "<d:supported-report><d:report><c:calendar-multiget/></d:report></d:supported-report></d:supported-report-set>",
            ),
          ]),
        );
      }
      if (method === "REPORT" && /calendar-query/.test(body)) {
        const items = [...objects].map(([file, text]) =>
          response(`${home}${name}/${file}`, `<d:getetag>${esc(tag(text))}</d:getetag><c:calendar-data>${esc(text)}</c:calendar-data>`),
        );
        if (reportDelayMs > 0) setTimeout(() => send(207, multistatus(items)), reportDelayMs).unref();
        else send(207, multistatus(items));
        return;
      }
      return send(405);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setCalendar: (name, objects) => calendars.set(name, new Map(Object.entries(objects))),
    setReportDelay: (ms) => {
      reportDelayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
