import { describe, expect, it } from 'vitest';
import { describeEventType } from './history.ts';

describe('an event type in words', () => {
  it('reads a type as a sentence', () => {
    expect(describeEventType('customer_added')).toBe('Customer added');
  });

  it('says what a claim on a unique value means rather than its technical name', () => {
    expect(describeEventType('unique_key_claimed')).toBe('Taken: no other record may use it');
    expect(describeEventType('unique_key_released')).toBe('Released: free for another record');
  });
});
