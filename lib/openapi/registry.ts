/**
 * The operations the route files declare through `apiPath` (lib/api/route.ts), collected as the
 * route modules load; lib/openapi/document.ts assembles the OpenAPI document from them after
 * app/v2/openapi.json/routes.ts imported every route module.
 */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { type OperationDoc, toOperation } from "@/lib/openapi/operation";

const paths: ZodOpenApiPathsObject = {};

/** Records the operations of one path (methods in upper case); a reloaded module replaces its entry. */
export function registerOperations(version: "v1" | "v2", path: string, operations: Record<string, OperationDoc>): void {
  const item: Record<string, unknown> = {};
  for (const [method, doc] of Object.entries(operations)) item[method.toLowerCase()] = toOperation(version, method, doc);
  paths[path] = item;
}

/** Every declared path with its operations, sorted by path. */
export function registeredPaths(): ZodOpenApiPathsObject {
  return Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
