/**
 * Reading an OpenAPI 3.1 document for the /docs renderer: `$ref` resolution, a one-line type
 * label, and an example value built from a schema (its own `example` first, else enum, else by
 * type), with a guard against recursive references.
 */

/** The JSON-Schema subset zod-openapi writes. */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  example?: unknown;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
};

export type OpenApiDoc = { components?: { schemas?: Record<string, Schema> } };

/** The schema a `$ref` ("#/components/schemas/Name") points to, or the schema itself. */
export function resolveSchema(doc: OpenApiDoc, schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.replace(/^#\/components\/schemas\//, "");
  return doc.components?.schemas?.[name];
}

/** The name of a referenced schema ("ReportV2"), or null. */
export function refName(schema: Schema | undefined): string | null {
  return schema?.$ref ? schema.$ref.replace(/^#\/components\/schemas\//, "") : null;
}

/** "string (date-time)", "array of ReportV2", "integer", "one of: …". */
export function typeLabel(doc: OpenApiDoc, raw: Schema | undefined): string {
  if (!raw) return "any";
  const ref = refName(raw);
  const schema = resolveSchema(doc, raw);
  if (!schema) return ref ?? "any";
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) return variants.map((v) => typeLabel(doc, v)).join(" or ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const main = types.filter((t) => t !== "null");
  const nullable = types.includes("null") ? " or null" : "";
  if (main[0] === "array") return `array of ${typeLabel(doc, schema.items)}${nullable}`;
  if (main[0] === "object" || schema.properties) return `${ref ?? "object"}${nullable}`;
  const base = main.join(" | ") || (schema.const !== undefined ? JSON.stringify(schema.const) : "any");
  return `${base}${schema.format ? ` (${schema.format})` : ""}${nullable}`;
}

/** An example value of a schema (depth-limited; recursive references end as null). */
export function exampleOf(doc: OpenApiDoc, raw: Schema | undefined, seen: string[] = []): unknown {
  if (!raw) return null;
  const ref = refName(raw);
  if (ref && (seen.includes(ref) || seen.length > 6)) return null;
  const schema = resolveSchema(doc, raw);
  if (!schema) return null;
  const next = ref ? [...seen, ref] : seen;
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variant = (schema.oneOf ?? schema.anyOf)?.[0];
  if (variant) return exampleOf(doc, variant, next);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => exampleOf(doc, s, next)));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t && t !== "null");
  if (type === "object" || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, exampleOf(doc, v, next)]));
  }
  if (type === "array") return [exampleOf(doc, schema.items, next)];
  if (type === "integer") return schema.minimum !== undefined && schema.minimum > 1 ? schema.minimum : 1;
  if (type === "number") return 1.5;
  if (type === "boolean") return true;
  if (type === "string") {
    if (schema.format === "date-time") return "2026-11-20T09:30:00.000Z";
    if (schema.format === "date") return "2026-11-20";
    if (schema.format === "uri") return "https://example.com/";
    return "string";
  }
  return null;
}
