import { describe, expect, it } from 'vitest';
import { defaultOutboxPolicy, retryDelayMs } from './worker.ts';

describe('outbox retries', () => {
  it('waits a minute after the first failure, doubling up to an hour', () => {
    const minutes = [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => retryDelayMs(defaultOutboxPolicy, attempt) / 60_000);
    expect(minutes).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(defaultOutboxPolicy.maxAttempts).toBe(8);
  });
});
