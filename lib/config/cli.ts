/**
 * `npm run config -- export | plan | apply` (issue 43, check-ins as code): a client of the v2 API
 * (GET /v2/config, POST /v2/config/plan, POST /v2/config/apply) with an admin's API key, so it works
 * against any server. Documents are YAML or JSON (a JSON document is valid YAML). Problems are
 * printed as `<file>:<line>: <path in the document>: <problem>`, first those found locally by the
 * schema, then those only the server can judge (unknown people, channels, timezones).
 * Exit codes: 0 done; 1 error; 2 `plan --exit-code` found changes.
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { LineCounter, parseDocument, stringify } from "yaml";
import type { ConfigPlan, FieldChange } from "@/lib/config/plan";
import { type ConfigProblem, validateTeamConfig } from "@/lib/config/schema";

/** Where the CLI writes. */
export type CliIo = { out: (text: string) => void; err: (text: string) => void };

export const CONFIG_USAGE = `Usage: npm run config -- export [-o team.yaml] [--format yaml|json]
       npm run config -- plan -f team.yaml [--prune] [--exit-code]
       npm run config -- apply -f team.yaml [--prune]
Options: --url <service base URL> (or CHECKIN_API_URL), --key <admin API key, or - for stdin> (or CHECKIN_API_KEY)`;

class CliError extends Error {}

/** "standups[2].questions[0].choices" → ["standups", 2, "questions", 0, "choices"]. */
export function pathSegments(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

type Loaded = { file: string; document: unknown; lineOf: (path: string) => number | null };

/** Reads and parses a YAML/JSON file. @throws CliError naming the file (and line) of a syntax error. */
function loadDocument(file: string): Loaded {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new CliError(`${file}: cannot read: ${(e as Error).message}`);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length) {
    throw new CliError(
      doc.errors
        .map((e) => {
          const at = lineCounter.linePos(e.pos[0]);
          return `${file}:${at.line}:${at.col}: ${e.message.split("\n")[0]}`;
        })
        .join("\n"),
    );
  }
  const lineOf = (path: string): number | null => {
    // The deepest node of the path that exists (a missing field points at its parent).
    const segs = pathSegments(path);
    for (let n = segs.length; n >= 0; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(segs.slice(0, n), true);
      const range = (node as { range?: [number, number, number] } | undefined)?.range;
      if (range) return lineCounter.linePos(range[0]).line;
    }
    return null;
  };
  return { file, document: doc.toJS() ?? {}, lineOf };
}

function problemLines(loaded: Loaded, problems: ConfigProblem[]): string {
  return problems
    .map((p) => {
      const line = loaded.lineOf(p.path);
      return `${loaded.file}${line ? `:${line}` : ""}: ${p.path}: ${p.message}`;
    })
    .join("\n");
}

type Api = { url: string; key: string };

async function call(api: Api, method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  let response: Response;
  try {
    response = await fetch(`${api.url.replace(/\/+$/, "")}${path}`, {
      method,
      headers: { authorization: api.key, "content-type": "application/json", accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new CliError(`cannot reach ${api.url}: ${(e as Error).message}`);
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  if (response.status === 401) throw new CliError(`${api.url} refused the API key (401): use an admin's key of this service`);
  if (response.status === 404 && path.startsWith("/v2/config"))
    throw new CliError(`${api.url}${path}: not found (404): the key must be a team admin's, on a server with check-ins as code`);
  return { status: response.status, json };
}

function errorMessage(json: unknown): string {
  return (json as { error?: { message?: string } } | null)?.error?.message ?? JSON.stringify(json);
}

const show = (v: unknown) => (v === undefined ? "(unset)" : JSON.stringify(v));

function fieldLine(f: FieldChange): string {
  if (f.from === null && f.to !== null && f.field.startsWith("questions[")) return `      + ${f.field}: ${show(f.to)}`;
  if (f.to === null && f.from !== null && f.field.startsWith("questions[")) return `      - ${f.field}`;
  return `      ~ ${f.field}: ${show(f.from)} → ${show(f.to)}`;
}

/** The plan as people read it: one line per item (+ create, ~ change, - delete), changed fields under it. */
export function formatPlan(plan: ConfigPlan, opts: { done?: boolean } = {}): string {
  const lines: string[] = [];
  const sign = { create: "+", change: "~", delete: "-" } as const;
  for (const c of plan.changes) {
    lines.push(`  ${sign[c.action]} ${c.kind} ${JSON.stringify(c.name)}${c.action === "change" ? "" : ` (${c.action})`}`);
    for (const f of c.fields) lines.push(fieldLine(f));
  }
  const count = (a: string) => plan.changes.filter((c) => c.action === a).length;
  const verb = opts.done ? "Applied" : "Plan";
  lines.push(
    plan.changes.length === 0
      ? "No changes: the team matches the document."
      : `${verb}: ${count("create")} to create, ${count("change")} to change, ${count("delete")} to delete.`.replace(
          /to (create|change|delete)/g,
          opts.done ? "$1d" : "to $1",
        ),
  );
  if (plan.unmanaged.length)
    lines.push(
      `${plan.unmanaged.length} item(s) not named in the document were kept (--prune deletes them): ${plan.unmanaged.map((u) => `${u.kind} ${JSON.stringify(u.name)}`).join(", ")}`,
    );
  return lines.join("\n");
}

/**
 * Runs one CLI command.
 * @param defaults `--url` / `--key` defaults (lib/env.ts `configCliSettings`).
 * @returns the exit code (0 done, 1 error, 2 changes found by `plan --exit-code`).
 */
export async function runConfigCli(
  argv: string[],
  io: CliIo,
  defaults: { url: string; key?: string },
  stdin = () => fs.readFileSync(0, "utf8"),
): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        file: { type: "string", short: "f" },
        output: { type: "string", short: "o" },
        format: { type: "string" },
        prune: { type: "boolean" },
        "exit-code": { type: "boolean" },
        url: { type: "string" },
        key: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
    const command = positionals[0];
    if (values.help || !command) {
      io.out(CONFIG_USAGE);
      return values.help ? 0 : 1;
    }
    if (!["export", "plan", "apply"].includes(command)) throw new CliError(`unknown command ${JSON.stringify(command)}\n${CONFIG_USAGE}`);
    const rawKey = values.key === "-" ? stdin() : (values.key ?? defaults.key);
    const key = rawKey?.trim();
    if (!key) throw new CliError("missing API key: --key <admin API key> or CHECKIN_API_KEY");
    const api: Api = { url: values.url ?? defaults.url, key };
    if (!/^https?:\/\/[^/]/.test(api.url)) throw new CliError(`--url must be an http(s) URL, got ${JSON.stringify(api.url)}`);

    if (command === "export") {
      const r = await call(api, "GET", "/v2/config");
      if (r.status !== 200) throw new CliError(`export failed (${r.status}): ${errorMessage(r.json)}`);
      const document = (r.json as { data: unknown }).data;
      const format = values.format ?? (values.output?.endsWith(".json") ? "json" : "yaml");
      if (format !== "yaml" && format !== "json") throw new CliError(`--format must be yaml or json, got ${JSON.stringify(format)}`);
      const text =
        format === "json"
          ? `${JSON.stringify(document, null, 2)}\n`
          : `# yaml-language-server: $schema=${api.url.replace(/\/+$/, "")}/v2/config.schema.json\n${stringify(document)}`;
      if (values.output) {
        fs.writeFileSync(values.output, text);
        io.err(`Wrote ${values.output}`);
      } else io.out(text.trimEnd());
      return 0;
    }

    if (!values.file) throw new CliError(`${command} needs -f <file>`);
    const loaded = loadDocument(values.file);
    const local = validateTeamConfig(loaded.document);
    if (!local.ok) throw new CliError(problemLines(loaded, local.problems));
    const body = { document: loaded.document, prune: values.prune ?? false };
    const r = await call(api, "POST", command === "plan" ? "/v2/config/plan" : "/v2/config/apply", body);
    if (r.status === 400) {
      const problems = errorMessage(r.json)
        .split("; ")
        .map((m) => {
          const i = m.indexOf(": ");
          return i > 0 ? { path: m.slice(0, i), message: m.slice(i + 2) } : { path: "(document)", message: m };
        });
      throw new CliError(problemLines(loaded, problems));
    }
    if (r.status !== 200) throw new CliError(`${command} failed (${r.status}): ${errorMessage(r.json)}`);
    const data = (r.json as { data: ConfigPlan & { webhook_secrets?: Array<{ url: string; secret: string }> } }).data;
    io.out(formatPlan(data, { done: command === "apply" }));
    for (const s of data.webhook_secrets ?? []) io.out(`Signing secret of the new webhook ${s.url} (shown once): ${s.secret}`);
    return command === "plan" && values["exit-code"] && data.changes.length > 0 ? 2 : 0;
  } catch (e) {
    if (e instanceof CliError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.err(e instanceof CliError ? e.message : `${(e as Error).message}\n${CONFIG_USAGE}`);
      return 1;
    }
    throw e;
  }
}
