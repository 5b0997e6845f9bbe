import { relative } from 'node:path';
import type { Reporter, TestCase } from 'vitest/node';

// Browser tests may run again after a failure (a click lost on a loaded machine). A test that
// passes only on a retry is still a defect to fix, so the run names each one, with what made each
// failed attempt fail (the retry would otherwise swallow it), and counts them at its end.

type AttemptError = { message?: string; stack?: string };
type Attempt = { state: string; retryIndex: number; errors?: AttemptError[] };

export default class RetryReporter implements Reporter {
  private readonly retried: string[] = [];

  onTestCaseResult(testCase: TestCase): void {
    const retries = testCase.diagnostic()?.retryCount ?? 0;
    if (retries === 0 || testCase.result().state !== 'passed') return;
    const file = relative(process.cwd(), testCase.module.moduleId);
    const lines = [`${file} > ${testCase.fullName} (passed after ${retries} ${retries === 1 ? 'retry' : 'retries'})`];
    // The runner keeps each attempt's errors on the task; the public TestCase shows only the last.
    const { task } = testCase as unknown as { task: { result?: { attempts?: Attempt[] } } };
    const attempts = (task.result?.attempts ?? []).filter((a) => a.state === 'fail');
    for (const attempt of attempts) {
      for (const error of attempt.errors ?? []) lines.push(`    attempt ${attempt.retryIndex + 1}: ${describe(error)}`);
    }
    this.retried.push(lines.join('\n'));
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

/** The error's first line and the first frame in the project's own test or source files. */
function describe(error: AttemptError): string {
  const message = (error.message ?? 'unknown error').split('\n')[0] ?? '';
  const frame = (error.stack ?? '')
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line.startsWith('at ') && !line.includes('node_modules') && /\.(ts|tsx)[:)]/.test(line));
  return frame ? `${message} (${frame.replace(`${process.cwd()}/`, '')})` : message;
}
