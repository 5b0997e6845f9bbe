import { describe, expect, it } from 'vitest';
import { creditRefundRefusal } from './billing.ts';

describe('a refund of account credit', () => {
  it('takes up to the credit on the account, to the cent', () => {
    expect(creditRefundRefusal('30.00', '30.00')).toBeNull();
    expect(creditRefundRefusal('0.01', '30.00')).toBeNull();
    expect(creditRefundRefusal('30.01', '30.00')).toBe('must be at most $30.00, the credit on the account');
  });

  it('takes nothing when the account holds no credit', () => {
    expect(creditRefundRefusal('0.01', '0.00')).toBe('must be at most $0.00, the credit on the account');
    expect(creditRefundRefusal('5.00', '-2.00')).toBe('must be at most $0.00, the credit on the account');
  });
});
