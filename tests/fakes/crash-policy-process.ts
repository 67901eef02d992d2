/**
 * A process under the crash policy of lib/runtime/crash-policy.ts, for lib/runtime/crash-policy.test.ts:
 * `reject` leaves a promise rejected with a lost-connection error (PostgreSQL's 57P01, as
 * graphile-worker's unawaited job completion does) unhandled, then says "still serving" 300 ms
 * later and exits 0; `throw` throws from a timer (an uncaught exception) and never says it.
 */
import { installCrashPolicy } from "@/lib/runtime/crash-policy";

installCrashPolicy({ name: "test", log: (line) => console.log(line), onFatal: async () => console.log("cleaning up") });
const mode = process.argv[2];
if (mode === "reject") {
  void Promise.reject(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }));
} else {
  setTimeout(() => {
    throw new Error("boom");
  }, 10);
}
setTimeout(() => {
  console.log("still serving");
  process.exit(0);
}, 300);
