// Which of the suite's per-worker resources (suite-setup.ts) belongs to this test file's worker.

/** The entry of `list` for this worker (VITEST_POOL_ID runs from 1 to the number of workers). */
export function forThisWorker<T>(list: readonly T[]): T | undefined {
  if (list.length === 0) return undefined;
  return list[(Number(process.env.VITEST_POOL_ID ?? '1') - 1) % list.length];
}

/**
 * Workers of the parallel suite: TEST_WORKERS, or 2. On the 2-core machine three were about as fast
 * but starved Chromium enough that clicks in the browser tests were lost now and then.
 */
export function suiteWorkers(): number {
  const workers = Number(process.env.TEST_WORKERS ?? '2');
  return Number.isInteger(workers) && workers > 0 ? workers : 2;
}
