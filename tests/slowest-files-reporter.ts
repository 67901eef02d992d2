/**
 * A Vitest reporter that prints, after the run, the ten test files that took longest (issue 49:
 * "print the slowest 10 test files"), so CI output shows where the suite's time goes. Duration per
 * file = its tests and hooks plus its set-up and import time (ms, wall clock in its worker).
 */
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

const SHOWN = 10;

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows = testModules
      .map((m) => {
        const d = m.diagnostic();
        return { file: path.relative(process.cwd(), m.moduleId), ms: d.duration + d.setupDuration + d.collectDuration + d.prepareDuration };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN);
    if (rows.length < 2) return;
    console.log(`\nSlowest ${rows.length} test files:`);
    for (const r of rows) console.log(`  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.file}`);
  }
}
