import { describe, expect, it } from 'vitest';
import { BulkRentChangeRequest } from './rent-changes.ts';

describe('the bulk rent change request', () => {
  const body = { facilityId: '9e1f3b7c-2d4a-4f6b-8a0c-1e2d3c4b5a03', minMonthsAtRate: 12, kind: 'percent', value: '5', effectiveDate: '2026-04-01' };

  it('refuses a value that is not an amount (naming value, without throwing), and a percentage over 100', () => {
    expect(BulkRentChangeRequest.safeParse(body).success).toBe(true);
    const bad = BulkRentChangeRequest.safeParse({ ...body, value: '&w' });
    expect(bad.error?.issues.map((issue) => issue.path)).toEqual([['value']]);
    expect(BulkRentChangeRequest.safeParse({ ...body, value: 12 }).success).toBe(true);
    expect(BulkRentChangeRequest.safeParse({ ...body, value: '100.01' }).error?.issues[0]?.message).toBe('must be at most 100 (percent)');
    expect(BulkRentChangeRequest.safeParse({ ...body, kind: 'amount', value: '150.00' }).success).toBe(true);
  });
});
