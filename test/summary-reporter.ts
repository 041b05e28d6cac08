import type { Reporter, TestModule } from "vitest/node";

/** Ends the run with the plain `Tests: N passed, N failed, N skipped` line CI reads. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") count.passed += 1;
        else if (state === "failed") count.failed += 1;
        else count.skipped += 1;
      }
      // A file that failed before its tests ran (an import error) counts as a failure.
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) count.failed += 1;
    }
    console.log(`\nTests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped`);
  }
}
