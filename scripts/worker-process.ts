/**
 * Entry of the job worker's process (lib/runtime/worker-process.ts), started by the service process
 * of `npm start` (lib/runtime/server.ts) with `node --import tsx scripts/worker-process.ts`; not
 * meant to be run by hand. Its lines, console output and warnings go through lib/logger.ts (name `worker`).
 */
import { installProcessLogger, lineLogger } from "@/lib/logger";
import { runWorkerProcess } from "@/lib/runtime/worker-process";

process.exitCode = await runWorkerProcess(lineLogger(installProcessLogger("worker")));
process.exit();
