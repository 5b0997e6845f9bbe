import { describe, expect, it } from 'vitest';
import { dayInWords } from './day-words.ts';

describe('a day in words', () => {
  it('writes the calendar day itself, whatever the machine’s zone', () => {
    expect(dayInWords('2026-12-01')).toBe('Dec 1, 2026');
    expect(dayInWords('2025-03-31')).toBe('Mar 31, 2025');
  });
});
