/**
 * A job worker in a process of its own, for tests that kill it mid-delivery: the same
 * `startWorker` as `npm start`, against `DATABASE_URL`, with the delivery config given as JSON in
 * `DELIVERY_CONFIG`. Prints "worker ready" once running.
 */
import { startWorker } from "@/lib/jobs/worker";

const worker = await startWorker({
  connectionString: process.env.DATABASE_URL as string,
  log: (line) => console.log(line),
  crontab: "",
  delivery: JSON.parse(process.env.DELIVERY_CONFIG as string),
});
console.log("worker ready");
process.on("SIGTERM", () => void worker.stop().then(() => process.exit(0)));
