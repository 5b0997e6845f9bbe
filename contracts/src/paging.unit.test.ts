import { describe, expect, it } from 'vitest';
import { pageHeaders, pageInfoOf, totalText } from './paging.ts';

describe('totalText', () => {
  it('says an exact count as it is, a capped one as "at least" and an estimate as about, rounded', () => {
    expect(totalText({ count: 64_812, kind: 'exact' })).toBe('64812');
    expect(totalText({ count: 10_000, kind: 'atLeast' })).toBe('10,000+');
    expect(totalText({ count: 64_812, kind: 'estimated' })).toBe('about 64,800');
    expect(totalText({ count: 812, kind: 'estimated' })).toBe('about 812');
  });
});

describe('page headers', () => {
  it('read back as they were written', () => {
    const info = { total: { count: 10_000, kind: 'atLeast' as const }, nextCursor: 'abc', prevCursor: null };
    const headers = new Headers(pageHeaders(info));
    expect(pageInfoOf(headers, 0)).toEqual(info);
    expect(pageInfoOf(new Headers(), 3)).toEqual({ total: { count: 3, kind: 'exact' }, nextCursor: null, prevCursor: null });
  });
});
