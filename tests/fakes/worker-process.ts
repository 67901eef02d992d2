/**
 * A job worker in a process of its own, for tests that kill it mid-delivery: the same worker
 * process as `npm start` runs (lib/runtime/worker-process.ts: `startWorker` under the crash
 * policy), against `DATABASE_URL`, with no schedule and the delivery config given as JSON in
 * `DELIVERY_CONFIG`. Prints "worker ready" once running; stops on SIGTERM.
 */
import { runWorkerProcess } from "@/lib/runtime/worker-process";

const log = (line: string) => {
  console.log(line);
  if (line.startsWith("Job worker running")) console.log("worker ready");
};
process.exitCode = await runWorkerProcess(log, { crontab: "", delivery: JSON.parse(process.env.DELIVERY_CONFIG as string) });
process.exit();
