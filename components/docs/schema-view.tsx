import { type OpenApiDoc, refName, resolveSchema, type Schema, typeLabel } from "@/components/docs/schema";

/**
 * The fields of a schema as a nested list: name, type, required marker, description, allowed
 * values, and the fields of nested objects (arrays of objects included), down to `maxDepth`.
 */
export function SchemaFields({
  doc,
  schema,
  depth = 0,
  seen = [],
}: {
  doc: OpenApiDoc;
  schema: Schema | undefined;
  depth?: number;
  seen?: string[];
}) {
  const ref = refName(schema);
  const resolved = resolveSchema(doc, schema);
  if (!resolved || depth > 4 || (ref && seen.includes(ref))) return null;
  const next = ref ? [...seen, ref] : seen;
  const target =
    resolved.type === "array" || (Array.isArray(resolved.type) && resolved.type.includes("array"))
      ? resolveSchema(doc, resolved.items)
      : resolved;
  const variants = target?.oneOf ?? target?.anyOf;
  if (variants) {
    return (
      <ul className="ml-3 space-y-2 border-l border-slate-200 pl-3">
        {variants.map((v, i) => (
          <li key={refName(v) ?? i}>
            <p className="text-xs text-slate-600">
              Variant {i + 1}: {typeLabel(doc, v)}
            </p>
            <SchemaFields doc={doc} schema={v} depth={depth + 1} seen={next} />
          </li>
        ))}
      </ul>
    );
  }
  const properties = Object.entries(target?.properties ?? {});
  if (!target || properties.length === 0) return null;
  const required = new Set(target.required ?? []);
  return (
    <ul className={depth ? "ml-3 space-y-1.5 border-l border-slate-200 pl-3" : "space-y-1.5"}>
      {properties.map(([name, prop]) => {
        const p = resolveSchema(doc, prop);
        return (
          <li key={name} className="text-sm">
            <code className="font-mono font-semibold text-slate-900">{name}</code>{" "}
            <span className="font-mono text-xs text-slate-600">{typeLabel(doc, prop)}</span>
            {required.has(name) ? <span className="ml-1 text-xs font-medium text-red-800">required</span> : null}
            {p?.description ? <span className="block text-slate-700">{p.description}</span> : null}
            {p?.enum ? (
              <span className="block text-xs text-slate-600">One of: {p.enum.map((v) => JSON.stringify(v)).join(", ")}</span>
            ) : null}
            <SchemaFields doc={doc} schema={prop} depth={depth + 1} seen={next} />
          </li>
        );
      })}
    </ul>
  );
}

/** A JSON example in a scrolling code block. */
export function JsonExample({ value, label }: { value: unknown; label: string }) {
  return (
    <figure className="mt-2">
      <figcaption className="text-xs font-medium text-slate-600">{label}</figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard */}
      <pre tabIndex={0} className="mt-1 max-h-80 overflow-auto rounded-md bg-slate-100 p-3 text-xs text-slate-900">
        <code>{JSON.stringify(value, null, 2)}</code>
      </pre>
    </figure>
  );
}
