import type { Metadata } from "next";
import { getOpenApiDocument, OPENAPI_TAGS } from "@/lib/openapi/document";

export const metadata: Metadata = { title: "API documentation" };

type Parameter = { name: string; in: string; required?: boolean; description?: string };
type Operation = { tags?: string[]; operationId?: string; summary?: string; description?: string; parameters?: Parameter[] };
type Entry = { method: string; path: string; operation: Operation };

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

const METHOD_STYLE: Record<string, string> = {
  get: "bg-sky-100 text-sky-900",
  post: "bg-emerald-100 text-emerald-900",
  put: "bg-amber-100 text-amber-900",
  patch: "bg-violet-100 text-violet-900",
  delete: "bg-rose-100 text-rose-900",
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
    <main className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="text-2xl font-semibold">{doc.info.title}</h1>
      <p className="mt-1 text-sm text-gray-600">Version {doc.info.version}</p>
      {doc.info.description ? <p className="mt-4 text-sm">{doc.info.description}</p> : null}
      <p className="mt-4 text-sm">
        Authenticate every request with your API key in the <code>Authorization</code> header, raw or as <code>Bearer &lt;key&gt;</code>.
        The machine-readable OpenAPI 3.1 document:{" "}
        <a className="text-blue-700 underline" href="/v2/openapi.json">
          /v2/openapi.json
        </a>
        .
      </p>
      <nav aria-label="Sections" className="mt-6">
        <ul className="flex flex-wrap gap-3 text-sm">
          {groups.map((g) => (
            <li key={g.name}>
              <a className="text-blue-700 underline" href={`#${slug(g.name)}`}>
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
          <p className="mt-1 text-sm text-gray-600">{group.description}</p>
          <ul className="mt-4 space-y-4">
            {group.entries.map(({ method, path, operation }) => (
              <li key={`${method} ${path}`} id={operation.operationId} className="rounded border border-gray-200 p-4">
                <h3 className="flex flex-wrap items-center gap-2 font-mono text-sm">
                  <span className={`rounded px-2 py-0.5 font-semibold uppercase ${METHOD_STYLE[method] ?? ""}`}>{method}</span>
                  <span>{path}</span>
                </h3>
                {operation.summary ? <p className="mt-2 text-sm font-medium">{operation.summary}</p> : null}
                {operation.description ? <p className="mt-1 text-sm text-gray-700">{operation.description}</p> : null}
                {operation.parameters?.length ? (
                  <table className="mt-3 w-full text-left text-sm">
                    <thead>
                      <tr className="border-b border-gray-200 text-gray-600">
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
                        <tr key={`${p.in} ${p.name}`} className="border-b border-gray-100 align-top">
                          <td className="py-1 pr-3 font-mono">
                            {p.name}
                            {p.required ? <span className="text-rose-700"> *</span> : null}
                          </td>
                          <td className="py-1 pr-3">{p.in}</td>
                          <td className="py-1">{p.description ?? ""}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </main>
  );
}

/** An anchor id for a tag name. */
function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
