/**
 * Process-wide state: one value per `name` for the whole Node.js process, kept on globalThis.
 *
 * Why: Next.js bundles a module into several route chunks, each with its own module-level
 * variables, and its dev server re-evaluates modules on reload. State that must exist once per
 * process (the database client's pool map and statement names, the API-key cache, the rate-limit
 * counters, the chat-id counter) lives here instead of in a module-level variable.
 * @param name the globalThis property (`__checkin…`), one per kind of state.
 * @returns the value stored under `name`, made by `init()` on first use.
 */
export function processState<T>(name: `__checkin${string}`, init: () => T): T {
  const store = globalThis as unknown as Record<string, unknown>;
  if (store[name] === undefined) store[name] = init();
  return store[name] as T;
}

/** Forgets the value under `name`: the next `processState(name, init)` makes a new one (e.g. after closing it). */
export function dropProcessState(name: `__checkin${string}`): void {
  delete (globalThis as unknown as Record<string, unknown>)[name];
}
