import type { Metadata } from "next";
import { getOpenApiDocument, OPENAPI_TAGS } from "@/app/v2/openapi.json/routes";
import { exampleOf, type OpenApiDoc, type Schema } from "@/components/docs/schema";
import { JsonExample, SchemaFields } from "@/components/docs/schema-view";

export const metadata: Metadata = { title: "API documentation" };

type Parameter = { name: string; in: string; required?: boolean; description?: string };
type Content = Record<string, { schema?: Schema; example?: unknown }>;
type Operation = {
  tags?: string[];
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; description?: string; content?: Content };
  responses?: Record<string, { description?: string; content?: Content }>;
};
type Entry = { method: string; path: string; operation: Operation };

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

const METHOD_STYLE: Record<string, string> = {
  get: "bg-brand-100 text-brand-800",
  post: "bg-green-100 text-green-900",
  put: "bg-amber-100 text-amber-900",
  patch: "bg-amber-100 text-amber-900",
  delete: "bg-red-100 text-red-900",
};

/** The operations of the OpenAPI document grouped by their first tag, in tag order. */
function groupOperations(): Array<{ name: string; description: string; entries: Entry[] }> {
  const doc = getOpenApiDocument();
  const entries: Entry[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method] as Operation | undefined;
      if (operation) entries.push({ method, path, operation });
    }
  }
  return OPENAPI_TAGS.map((tag) => ({
    name: tag.name,
    description: tag.description,
    entries: entries.filter((e) => e.operation.tags?.[0] === tag.name),
  })).filter((group) => group.entries.length > 0);
}

/**
 * `/docs`: public, server-rendered API reference generated from the OpenAPI document served at
 * `/v2/openapi.json` — every operation grouped by tag with method, path, summary and parameters.
 */
export default function DocsPage() {
  const doc = getOpenApiDocument();
  const groups = groupOperations();
  return (
    <main className="mx-auto max-w-4xl px-4 py-8 text-slate-900">
      <h1 className="text-2xl font-semibold">{doc.info.title}</h1>
      <p className="mt-1 text-sm text-slate-600">Version {doc.info.version}</p>
      {doc.info.description ? <p className="mt-4 text-sm">{doc.info.description}</p> : null}
      <p className="mt-4 text-sm">
        Authenticate every request with your API key in the <code>Authorization</code> header, raw or as <code>Bearer &lt;key&gt;</code>.
        The machine-readable OpenAPI 3.1 document:{" "}
        <a className="text-brand-700 underline" href="/v2/openapi.json">
          /v2/openapi.json
        </a>
        .
      </p>
      <nav aria-label="Sections" className="mt-6">
        <ul className="flex flex-wrap gap-3 text-sm">
          {groups.map((g) => (
            <li key={g.name}>
              <a className="text-brand-700 underline" href={`#${slug(g.name)}`}>
                {g.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {groups.map((group) => (
        <section key={group.name} aria-labelledby={slug(group.name)} className="mt-10">
          <h2 id={slug(group.name)} className="text-xl font-semibold">
            {group.name}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{group.description}</p>
          <ul className="mt-4 space-y-4">
            {group.entries.map(({ method, path, operation }) => (
              <li key={`${method} ${path}`} id={operation.operationId} className="rounded border border-slate-200 p-4">
                <h3 className="flex flex-wrap items-center gap-2 font-mono text-sm">
                  <span className={`rounded px-2 py-0.5 font-semibold uppercase ${METHOD_STYLE[method] ?? ""}`}>{method}</span>
                  <span className="break-all">{path}</span>
                </h3>
                {operation.summary ? <p className="mt-2 text-sm font-medium">{operation.summary}</p> : null}
                {operation.description ? <p className="mt-1 text-sm text-slate-700">{operation.description}</p> : null}
                {operation.parameters?.length ? (
                  <div className="relative mt-3 overflow-x-auto" role="region" aria-label={`Parameters of ${method.toUpperCase()} ${path}`}>
                    <table className="w-full min-w-[28rem] text-left text-sm">
                      <thead>
                        <tr className="border-b border-slate-200 text-slate-600">
                          <th scope="col" className="py-1 pr-3 font-medium">
                            Parameter
                          </th>
                          <th scope="col" className="py-1 pr-3 font-medium">
                            In
                          </th>
                          <th scope="col" className="py-1 font-medium">
                            Description
                          </th>
                        </tr>
                      </thead>
                      <tbody>
                        {operation.parameters.map((p) => (
                          <tr key={`${p.in} ${p.name}`} className="border-b border-slate-100 align-top">
                            <td className="py-1 pr-3 font-mono">
                              {p.name}
                              {p.required ? <span className="text-red-800"> *</span> : null}
                            </td>
                            <td className="py-1 pr-3">{p.in}</td>
                            <td className="py-1">{p.description ?? ""}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                ) : null}
                <OperationBodies doc={doc as OpenApiDoc} method={method} path={path} operation={operation} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </main>
  );
}

/** Request body and responses of one operation: fields, examples, and a curl call. */
function OperationBodies({ doc, method, path, operation }: { doc: OpenApiDoc; method: string; path: string; operation: Operation }) {
  const body = operation.requestBody?.content?.["application/json"];
  const bodyExample = body ? (body.example ?? exampleOf(doc, body.schema)) : undefined;
  const curl = [
    `curl -X ${method.toUpperCase()} "http://localhost:3000${path}"`,
    '  -H "Authorization: Bearer $KEY"',
    ...(body ? ['  -H "Content-Type: application/json"', `  -d '${JSON.stringify(bodyExample)}'`] : []),
  ].join(" \\\n");
  return (
    <div className="mt-3 space-y-3">
      {body ? (
        <section aria-label={`Request body of ${method.toUpperCase()} ${path}`}>
          <h4 className="text-sm font-semibold">
            Request body{operation.requestBody?.required ? "" : " (optional)"}{" "}
            <span className="font-normal text-slate-600">application/json</span>
          </h4>
          <div className="mt-1">
            <SchemaFields doc={doc} schema={body.schema} />
          </div>
          <JsonExample value={bodyExample} label="Example request body" />
        </section>
      ) : null}
      <details>
        <summary className="cursor-pointer text-sm font-semibold text-brand-700">Example call (curl)</summary>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard */}
        <pre tabIndex={0} className="mt-1 overflow-auto rounded-md bg-slate-100 p-3 text-xs">
          <code>{curl}</code>
        </pre>
      </details>
      <section aria-label={`Responses of ${method.toUpperCase()} ${path}`}>
        <h4 className="text-sm font-semibold">Responses</h4>
        <ul className="mt-1 space-y-1">
          {Object.entries(operation.responses ?? {}).map(([status, response]) => {
            const json = response.content?.["application/json"];
            return (
              <li key={status} className="text-sm">
                <details>
                  <summary className="cursor-pointer">
                    <span
                      className={`mr-2 rounded px-1.5 py-0.5 font-mono text-xs font-semibold ${status.startsWith("2") ? "bg-green-100 text-green-900" : "bg-red-100 text-red-900"}`}
                    >
                      {status}
                    </span>
                    {response.description ?? ""}
                  </summary>
                  {json ? (
                    <div className="mt-2 ml-2 space-y-2">
                      <SchemaFields doc={doc} schema={json.schema} />
                      <JsonExample value={json.example ?? exampleOf(doc, json.schema)} label={`Example ${status} response`} />
                    </div>
                  ) : (
                    <p className="mt-1 ml-2 text-slate-600">No body.</p>
                  )}
                </details>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}

/** An anchor id for a tag name. */
function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
