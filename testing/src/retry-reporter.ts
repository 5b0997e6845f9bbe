import { relative } from 'node:path';
import type { Reporter, TestCase } from 'vitest/node';

// Browser tests may run again after a failure (a click lost on a loaded machine). A test that
// passes only on a retry is still a defect to fix, so the run names each one and counts them at
// its end, instead of the retry hiding it.

export default class RetryReporter implements Reporter {
  private readonly retried: string[] = [];

  onTestCaseResult(testCase: TestCase): void {
    const retries = testCase.diagnostic()?.retryCount ?? 0;
    if (retries === 0 || testCase.result().state !== 'passed') return;
    const file = relative(process.cwd(), testCase.module.moduleId);
    this.retried.push(`${file} > ${testCase.fullName} (passed after ${retries} ${retries === 1 ? 'retry' : 'retries'})`);
  }

  onTestRunEnd(): void {
    if (this.retried.length === 0) {
      process.stdout.write('\nTests that passed only on a retry: 0\n');
      return;
    }
    process.stdout.write(`\nTests that passed only on a retry: ${this.retried.length} (each a defect to fix)\n`);
    for (const name of this.retried) process.stdout.write(`  RETRIED ${name}\n`);
  }
}
