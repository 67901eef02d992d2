/**
 * Local fakes of the forges and trackers the activity connectors read (issue 48 "Tests"), on
 * 127.0.0.1, one server with a path prefix per system, answering with each API's real payload
 * shapes, authentication and pagination, `pageSize` items per page whatever the client asks:
 *
 * - `/github`  GitHub REST: `GET /users/{login}/events` (Bearer token), `Link: <…>; rel="next"`.
 * - `/gitlab`  GitLab REST v4: `GET /api/v4/events` (`PRIVATE-TOKEN`), `X-Next-Page`;
 *              `GET /api/v4/projects/{id}` (web_url).
 * - `/gitea`   Gitea/Forgejo: `GET /api/v1/users/{login}/activities/feeds` (`token …`), `Link` + `X-Total-Count`.
 * - `/jira`    Jira Server: `GET /rest/api/2/search` (Bearer PAT or Basic), `startAt`/`maxResults`/`total`.
 * - `/linear`  Linear GraphQL: `POST /graphql` (API key as it is), `pageInfo { hasNextPage endCursor }`;
 *              a wrong key gets Linear's 400 with an AUTHENTICATION_ERROR.
 *
 * A request with another token than the system's `tokens` entry gets the system's 401 (Linear: 400).
 * Every request is recorded (system, path with query, authorization header).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ForgeSystem = "github" | "gitlab" | "gitea" | "jira" | "linear";
export type ForgeRequest = { system: ForgeSystem; path: string; auth: string };

export type ForgeFake = {
  /** Base URL, e.g. http://127.0.0.1:PORT; a system's API root is `${url}/${system}`. */
  url: string;
  requests: ForgeRequest[];
  /** The records each system serves, newest first, in its own payload shape. */
  data: Record<ForgeSystem, Array<Record<string, unknown>>>;
  /** The token each system accepts (Jira: the Bearer token, or `login:token` for Basic). */
  tokens: Record<ForgeSystem, string>;
  pageSize: number;
  close: () => Promise<void>;
};

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** Starts the fake; fill `data` (and change `tokens`) from the test. */
export async function startForgeFake(opts: { pageSize?: number } = {}): Promise<ForgeFake> {
  const fake: ForgeFake = {
    url: "",
    requests: [],
    data: { github: [], gitlab: [], gitea: [], jira: [], linear: [] },
    tokens: { github: "gh-good", gitlab: "gl-good", gitea: "gt-good", jira: "jr-good", linear: "lin_api_good" },
    pageSize: opts.pageSize ?? 2,
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const u = new URL(req.url ?? "/", fake.url);
      const [, system, ...rest] = u.pathname.split("/");
      const path = `/${rest.join("/")}`;
      const auth = String(req.headers.authorization ?? req.headers["private-token"] ?? "");
      if (!(system in fake.data)) return json(res, 404, { message: "Not Found" });
      const sys = system as ForgeSystem;
      fake.requests.push({ system: sys, path: `${path}${u.search}`, auth });
      const all = fake.data[sys];
      const size = fake.pageSize;
      const page = Math.max(1, Number(u.searchParams.get("page") ?? "1"));
      const slice = all.slice((page - 1) * size, page * size);
      const more = page * size < all.length;
      const base = `${fake.url}/${sys}`;
      if (sys === "github") {
        if (auth !== `Bearer ${fake.tokens.github}`)
          return json(res, 401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
        if (!/^\/users\/[^/]+\/events$/.test(path)) return json(res, 404, { message: "Not Found" });
        const link: Record<string, string> = more
          ? {
              link: `<${base}${path}?per_page=100&page=${page + 1}>; rel="next", <${base}${path}?per_page=100&page=${Math.ceil(all.length / size)}>; rel="last"`,
            }
          : {};
        return json(res, 200, slice, link);
      }
      if (sys === "gitlab") {
        if (auth !== fake.tokens.gitlab) return json(res, 401, { message: "401 Unauthorized" });
        const project = /^\/api\/v4\/projects\/(\d+)$/.exec(path);
        if (project)
          return json(res, 200, {
            id: Number(project[1]),
            path_with_namespace: `group/project-${project[1]}`,
            web_url: `${fake.url}/gitlab-web/group/project-${project[1]}`,
          });
        if (path !== "/api/v4/events") return json(res, 404, { message: "404 Not Found" });
        return json(res, 200, slice, {
          "x-page": String(page),
          "x-per-page": String(size),
          "x-next-page": more ? String(page + 1) : "",
          "x-total": String(all.length),
        });
      }
      if (sys === "gitea") {
        if (auth !== `token ${fake.tokens.gitea}`) return json(res, 401, { message: "token is required", url: `${base}/api/swagger` });
        if (!/^\/api\/v1\/users\/[^/]+\/activities\/feeds$/.test(path)) return json(res, 404, { errors: null, message: "not found" });
        const next = new URL(u);
        next.searchParams.set("page", String(page + 1));
        return json(res, 200, slice, { "x-total-count": String(all.length), ...(more ? { link: `<${next}>; rel="next"` } : {}) });
      }
      if (sys === "jira") {
        const basic = `Basic ${Buffer.from(fake.tokens.jira).toString("base64")}`;
        if (auth !== `Bearer ${fake.tokens.jira}` && auth !== basic)
          return json(res, 401, { errorMessages: ["You are not authenticated."], errors: {} });
        if (path !== "/rest/api/2/search") return json(res, 404, { errorMessages: ["Not found"], errors: {} });
        if (!u.searchParams.get("jql")) return json(res, 400, { errorMessages: ["jql is required"], errors: {} });
        const startAt = Number(u.searchParams.get("startAt") ?? "0");
        const maxResults = Math.min(size, Number(u.searchParams.get("maxResults") ?? "50"));
        return json(res, 200, {
          expand: "schema,names",
          startAt,
          maxResults,
          total: all.length,
          issues: all.slice(startAt, startAt + maxResults),
        });
      }
      // linear
      if (req.method !== "POST" || path !== "/graphql") return json(res, 404, { errors: [{ message: "Not found" }] });
      if (auth !== fake.tokens.linear)
        return json(res, 400, {
          errors: [
            {
              message: "Authentication required, not authenticated",
              extensions: {
                type: "authentication error",
                code: "AUTHENTICATION_ERROR",
                userPresentableMessage: "You need to authenticate to access this operation.",
              },
            },
          ],
        });
      const { variables } = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { variables?: { after?: string | null } };
      const from = variables?.after ? Number(variables.after) : 0;
      const nodes = all.slice(from, from + size);
      const hasNextPage = from + size < all.length;
      return json(res, 200, {
        data: { viewer: { assignedIssues: { nodes, pageInfo: { hasNextPage, endCursor: hasNextPage ? String(from + size) : null } } } },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
