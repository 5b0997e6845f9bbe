import { ApiError } from '@storage/web-client/api';
import { describe, expect, it } from 'vitest';
import { attemptKey, attemptSettled } from './attempt-keys.ts';

describe('one key per attempted request until it is answered', () => {
  it('sends the same payment again with the same key until it succeeds, then a new one', () => {
    const payment = { amount: '80.00', method: 'cash' };
    const first = attemptKey('desk-payment:ada', payment);
    expect(attemptKey('desk-payment:ada', { ...payment })).toBe(first);
    // A lost connection or a server that died: the answer is unknown, the key stays.
    attemptSettled('desk-payment:ada', new TypeError('Failed to fetch'));
    attemptSettled('desk-payment:ada', new ApiError(500, 'Internal Server Error', ''));
    attemptSettled('desk-payment:ada', new ApiError(409, 'Conflict', 'still being processed'));
    expect(attemptKey('desk-payment:ada', payment)).toBe(first);
    attemptSettled('desk-payment:ada');
    expect(attemptKey('desk-payment:ada', payment)).not.toBe(first);
  });

  it('gives another request, or another renter, its own key, and forgets a request refused for good', () => {
    const key = attemptKey('desk-payment:bob', { amount: '10.00' });
    expect(attemptKey('desk-payment:cy', { amount: '10.00' })).not.toBe(key);
    const other = attemptKey('desk-payment:bob', { amount: '12.00' });
    expect(other).not.toBe(key);
    attemptSettled('desk-payment:bob', new ApiError(400, 'Bad Request', 'amount: must be at most 1,000,000.00'));
    expect(attemptKey('desk-payment:bob', { amount: '12.00' })).not.toBe(other);
  });
});
