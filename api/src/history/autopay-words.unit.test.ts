import { describe, expect, it } from 'vitest';
import { describeBillingEvent } from './billing-words.ts';

const invoiceId = '00000000-0000-4000-8000-000000000042';
const names = (kind: string, id: string) => (kind === 'invoice' && id === invoiceId ? 'INV-0042' : undefined);

describe('autopay in words', () => {
  it('says what was saved (never a number) and what each charge came to', () => {
    expect(describeBillingEvent('payment_method_saved', { brand: 'visa', last4: '4242', expMonth: 3, expYear: 2030 }, names)).toBe(
      'Card saved: Visa ending in 4242, expires 03/2030',
    );
    expect(describeBillingEvent('autopay_charge_attempted', { invoiceId, attempt: 1, amount: '120.00', date: '2026-06-01' }, names)).toBe(
      'Autopay charge 1 of $120.00 for INV-0042 (Jun 1, 2026)',
    );
    const failed = { invoiceId, attempt: 2, amount: '120.00', reason: 'Your card was declined.', requiresAction: false, nextAttemptOn: '2026-06-04' };
    expect(describeBillingEvent('autopay_charge_failed', failed, names)).toBe(
      'Autopay charge 2 of $120.00 for INV-0042 failed: Your card was declined.; next try Jun 4, 2026',
    );
    expect(describeBillingEvent('autopay_charge_failed', { ...failed, nextAttemptOn: null, requiresAction: true }, names)).toMatch(/must pay in the portal$/);
    expect(describeBillingEvent('autopay_charge_succeeded', { invoiceId, amount: '120.00' }, names)).toBe('Autopay charged $120.00 for INV-0042');
  });
});
