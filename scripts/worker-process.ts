/**
 * Entry of the job worker's process (lib/runtime/worker-process.ts), started by the service process
 * of `npm start` (lib/runtime/server.ts) with `node --import tsx scripts/worker-process.ts`; not
 * meant to be run by hand.
 */
import { runWorkerProcess } from "@/lib/runtime/worker-process";

process.exitCode = await runWorkerProcess((line) => console.log(line));
process.exit();
