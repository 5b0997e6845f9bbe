import { defaultBillingSettings } from '@storage/contracts/billing';
import { describe, expect, it } from 'vitest';
import { describeBillingEvent } from './billing-words.ts';
import type { Names } from './readable.ts';

const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const invoiceId = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e05';
const facilityId = '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9';
const known: Record<string, string> = { [customerId]: 'Rachel Martinez', [invoiceId]: 'INV-0042', [facilityId]: 'Oak Hill Storage Center' };
const names: Names = (_kind, id) => known[id];
const nobody: Names = () => undefined;

describe('the billing events in words', () => {
  it('names the fee and the invoice it went on', () => {
    const line = { kind: 'late_fee', description: 'Late fee', amount: '25.00', periodStart: null, periodEnd: null };
    expect(describeBillingEvent('invoice_line_added', { invoiceId, customerId, line, amount: '145.00' }, names)).toBe('Late fee of $25.00 added to INV-0042');
    expect(describeBillingEvent('invoice_line_added', { invoiceId, customerId, line, amount: '145.00' }, nobody)).toBe(
      'Late fee of $25.00 added to the invoice',
    );
  });

  it('says whose standing changed, and why they are overdue or a manager marked them', () => {
    expect(describeBillingEvent('customer_standing_changed', { customerId, status: 'overdue', reason: 'INV-0042 is 11 days past due' }, names)).toBe(
      'Rachel Martinez is overdue: INV-0042 is 11 days past due',
    );
    expect(describeBillingEvent('customer_standing_changed', { customerId, status: 'active', reason: 'paid' }, names)).toBe(
      'Rachel Martinez is in good standing again',
    );
    expect(describeBillingEvent('customer_standing_changed', { customerId, status: 'inactive', reason: 'Moved out' }, names)).toBe(
      'Rachel Martinez marked inactive: Moved out',
    );
  });

  it("says how far the lease's rent is invoiced", () => {
    expect(describeBillingEvent('lease_rent_billed', { leaseId: customerId, invoiceId, periodStart: '2026-12-01', periodEnd: '2026-12-31' }, names)).toBe(
      'Rent invoiced through Dec 31, 2026 (INV-0042)',
    );
  });

  it('says what billing settings the business or a facility has now', () => {
    expect(describeBillingEvent('billing_settings_updated', { scope: 'business', settings: defaultBillingSettings }, names)).toBe(
      'Billing settings saved: due on the 1st, invoiced 5 days before; late fee $25.00 after 10 days; admin fee $0.00; first month prorated',
    );
    expect(describeBillingEvent('billing_settings_updated', { scope: facilityId, settings: null }, names)).toBe(
      "Oak Hill Storage Center uses the business's billing settings again",
    );
    const percent = {
      ...defaultBillingSettings,
      billingDay: 'anniversary',
      lateFee: { kind: 'percent', percent: '12.5', minimum: '20.00' },
      billNextMonthAfterDay: 20,
    };
    expect(describeBillingEvent('billing_settings_updated', { scope: facilityId, settings: percent }, names)).toBe(
      'Oak Hill Storage Center has billing settings of its own: due on the lease anniversary, invoiced 5 days before; late fee 12.5% (at least $20.00) after 10 days; admin fee $0.00; first month prorated; move-ins after the 20th also pay next month',
    );
  });

  it('says what rent change was scheduled or cancelled, and the notice days when they are not the default', () => {
    const change = {
      leaseId: customerId,
      customerId,
      changeId: invoiceId,
      currentRate: '120.00',
      newRate: '132.50',
      noticeDate: '2026-03-01',
      effectiveDate: '2026-04-01',
    };
    expect(describeBillingEvent('lease_rent_change_scheduled', { ...change, reason: 'Market rate' }, names)).toBe(
      'Rent change scheduled: $120.00 → $132.50 a month from Apr 1, 2026 (notice sent Mar 1, 2026): Market rate',
    );
    expect(describeBillingEvent('lease_rent_change_scheduled', { ...change, reason: null }, names)).toBe(
      'Rent change scheduled: $120.00 → $132.50 a month from Apr 1, 2026 (notice sent Mar 1, 2026)',
    );
    expect(describeBillingEvent('lease_rent_change_cancelled', { leaseId: customerId, changeId: invoiceId, reason: 'Kept the rate' }, names)).toBe(
      'Rent change cancelled: Kept the rate',
    );
    expect(
      describeBillingEvent('billing_settings_updated', { scope: 'business', settings: { ...defaultBillingSettings, rentChangeNoticeDays: 45 } }, names),
    ).toMatch(/; rent changes need 45 days' notice$/);
  });

  it('says how many lease agreement terms the business or a facility has now, and a facility following the business again', () => {
    const terms = { additionalTerms: ['The tenant must keep the unit locked with a lock of their own when not present.'] };
    expect(describeBillingEvent('lease_terms_updated', { facilityId: null, terms }, names)).toBe('Lease agreement terms saved: 1 additional term');
    expect(describeBillingEvent('lease_terms_updated', { facilityId: null, terms: null }, names)).toBe('Lease agreement terms saved: no additional terms');
    expect(describeBillingEvent('lease_terms_updated', { facilityId, terms: { additionalTerms: ['A', 'B'] } }, names)).toBe(
      'Oak Hill Storage Center has lease agreement terms of its own: 2 additional terms',
    );
    expect(describeBillingEvent('lease_terms_updated', { facilityId, terms: null }, nobody)).toBe("A facility uses the business's lease agreement terms again");
  });

  it('leaves every other event to its type in words', () => {
    expect(describeBillingEvent('invoice_sent', { invoiceId }, names)).toBeNull();
  });

  it('says what was refunded, how, why, and that the invoice is owed again', () => {
    const refund = {
      refundId: customerId,
      paymentId: invoiceId,
      invoiceId,
      customerId,
      amount: '30.00',
      method: 'card',
      reason: 'Gate broken',
      refundDate: '2026-12-02',
      providerRefundId: 're_1',
      invoiceStatus: 'overdue',
    };
    const { providerRefundId: _p, invoiceStatus: _s, ...requested } = refund;
    expect(describeBillingEvent('payment_refund_requested', requested, names)).toBe(
      'Refund of $30.00 (card) on INV-0042 requested from the payment provider: Gate broken',
    );
    expect(describeBillingEvent('payment_refund_issued', refund, names)).toBe('Refund of $30.00 (card) on INV-0042: Gate broken; INV-0042 is now overdue');
    expect(describeBillingEvent('payment_refund_issued', { ...refund, method: 'cash', invoiceStatus: 'sent' }, nobody)).toBe(
      'Refund of $30.00 (cash) on the invoice: Gate broken; the invoice is now sent',
    );
    expect(
      describeBillingEvent(
        'account_credit_refunded',
        { customerId, refundId: invoiceId, amount: '5.00', method: 'check', reference: '12', reason: 'Moved' },
        names,
      ),
    ).toBe('Credit of $5.00 refunded to Rachel Martinez (check): Moved');
    expect(
      describeBillingEvent('lease_deposit_settled', { leaseId: invoiceId, customerId, amount: '50.00', disposition: 'applied', method: null }, names),
    ).toBe('Deposit of $50.00 applied to the balance at move-out');
    expect(
      describeBillingEvent(
        'lease_deposit_settled',
        { leaseId: invoiceId, customerId, amount: '50.00', disposition: 'returned', method: 'bank_transfer' },
        names,
      ),
    ).toBe('Deposit of $50.00 returned at move-out (bank transfer)');
  });

  it('says when a scheduled move-out happens and what becomes of the deposit, and that it was called off', () => {
    const unitId = facilityId;
    const named: Names = (kind, id) => (kind === 'unit' && id === unitId ? 'A-101' : known[id]);
    const scheduled = { leaseId: invoiceId, customerId, unitId, endDate: '2026-12-15', scheduledOn: '2026-11-29', deposit: 'return', depositMethod: 'cash' };
    expect(describeBillingEvent('lease_move_out_scheduled', scheduled, named)).toBe(
      'Move-out from unit A-101 scheduled for Dec 15, 2026 (on Nov 29, 2026); the deposit will be returned (cash)',
    );
    expect(describeBillingEvent('lease_move_out_scheduled', { ...scheduled, deposit: 'apply', depositMethod: null }, nobody)).toBe(
      'Move-out scheduled for Dec 15, 2026 (on Nov 29, 2026); the deposit will be applied to the balance',
    );
    expect(describeBillingEvent('lease_move_out_scheduled', { ...scheduled, deposit: null, depositMethod: null }, named)).toBe(
      'Move-out from unit A-101 scheduled for Dec 15, 2026 (on Nov 29, 2026)',
    );
    const cancelled = { leaseId: invoiceId, customerId, unitId, endDate: '2026-12-15', cancelledOn: '2026-12-01', reason: 'Staying on' };
    expect(describeBillingEvent('lease_move_out_cancelled', cancelled, named)).toBe('Move-out on Dec 15, 2026 cancelled on Dec 1, 2026: Staying on');
    expect(describeBillingEvent('lease_move_out_cancelled', { ...cancelled, reason: null }, named)).toBe('Move-out on Dec 15, 2026 cancelled on Dec 1, 2026');
  });

  it('tells the access events without their code', () => {
    const leaseId = invoiceId;
    expect(describeBillingEvent('gate_code_assigned', { leaseId, customerId, facilityId: null, code: '[redacted]', reason: 'rotated' }, names)).toBe(
      'Gate code rotated: the old code no longer opens the gate',
    );
    expect(describeBillingEvent('gate_code_suspended', { leaseId, customerId, reason: 'lockout' }, names)).toBe('Gate code suspended: lockout');
    expect(describeBillingEvent('gate_code_reinstated', { leaseId, customerId, reason: 'Access restored: paid' }, names)).toBe(
      'Gate code reinstated: Access restored: paid',
    );
    expect(
      describeBillingEvent(
        'lock_desired_state_changed',
        { lockId: leaseId, unitId: null, customerId, desired: 'overlocked', reason: 'Lockout: day 15' },
        names,
      ),
    ).toBe('Lock should be overlocked: Lockout: day 15');
    expect(describeBillingEvent('access_attempted', { via: 'gate_code', granted: false, reason: 'Code suspended' }, names)).toBe(
      'Gate code denied: Code suspended',
    );
  });
});

describe('delinquency in words', () => {
  const named: Names = (kind, id) =>
    kind === 'customer' && id === customerId ? 'Jane Renter' : kind === 'invoice' && id === invoiceId ? 'INV-0042' : undefined;

  it('names the step, the renter, the invoice and the day', () => {
    expect(
      describeBillingEvent('delinquency_step_taken', { customerId, kind: 'lockout', day: 15, invoiceId, date: '2026-12-16', pastDue: '145.00' }, named),
    ).toBe('Lockout for Jane Renter on Dec 16, 2026: day 15 after INV-0042 was due, $145.00 past due');
    expect(describeBillingEvent('delinquency_cleared', { customerId, date: '2026-12-20', pastDue: '0.00', reason: 'Payment of $145.00 (Cash)' }, named)).toBe(
      "Jane Renter's delinquency cleared on Dec 20, 2026 ($0.00 past due): Payment of $145.00 (Cash)",
    );
    expect(describeBillingEvent('delinquency_paused', { customerId, until: '2027-01-05', reason: 'Promised to pay' }, named)).toBe(
      'Delinquency schedule of Jane Renter paused until Jan 5, 2027: Promised to pay',
    );
    expect(describeBillingEvent('delinquency_settings_updated', { scope: 'business', steps: [{ kind: 'lockout', day: 15, threshold: '50.00' }] }, named)).toBe(
      'Delinquency schedule saved: Lockout day 15 (over $50.00)',
    );
  });
});
