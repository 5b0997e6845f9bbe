import { type BillingSettings, defaultBillingSettings } from '@storage/contracts/billing';
import type { DomainEvent } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evolveLease, initialLeaseState, type LeaseState } from '../leases/lease.ts';
import { addDays } from './calendar.ts';
import { nextLeasePeriod } from './lease-billing.ts';
import { type BillingPeriod, invoiceDescription, issuedBy, linesTotal, MAX_PERIODS_AT_ONCE } from './periods.ts';
import { type MoveInTerms, moveInQuote } from './quote.ts';

const settings = (overrides: Partial<BillingSettings> = {}): BillingSettings => ({ ...defaultBillingSettings, ...overrides });
const terms = (overrides: Partial<MoveInTerms> = {}): MoveInTerms => ({ startDate: '2026-02-10', monthlyRate: '120.00', depositAmount: null, ...overrides });
const amounts = (lines: { amount: string }[]) => lines.map((l) => l.amount);

describe('the move-in quote', () => {
  it('prorates the first month on billing on the 1st, and names the next invoice: the next month, issued days before its 1st', () => {
    const quote = moveInQuote(terms(), settings({ issueDaysBefore: 5 }), '2026-02-10');
    expect(quote.dueToday).toHaveLength(1);
    expect(quote.dueToday[0]).toMatchObject({
      kind: 'move-in',
      description: 'Move-in charges',
      periodStart: '2026-02-10',
      periodEnd: '2026-02-28',
      dueDate: '2026-02-10',
      total: '81.43',
    });
    expect(quote.dueToday[0]!.lines[0]!.description).toBe('Prorated rent Feb 10 – Feb 28, 2026 (19 of 28 days)');
    expect(quote.totalDueToday).toBe('81.43');
    expect(quote.nextInvoice).toMatchObject({
      kind: 'rent',
      description: 'Rent Mar 1 – Mar 31, 2026',
      periodStart: '2026-03-01',
      periodEnd: '2026-03-31',
      issueDate: '2026-02-24',
      dueDate: '2026-03-01',
      total: '120.00',
    });
  });

  it('bills a whole month from the move-in on anniversary billing; the next invoice is due on the anniversary', () => {
    const quote = moveInQuote(terms(), settings({ billingDay: 'anniversary', issueDaysBefore: 3 }), '2026-02-10');
    expect(quote.dueToday.map((i) => [i.periodStart, i.periodEnd, i.total])).toEqual([['2026-02-10', '2026-03-09', '120.00']]);
    expect(quote.nextInvoice).toMatchObject({
      periodStart: '2026-03-10',
      periodEnd: '2026-04-09',
      issueDate: '2026-03-07',
      dueDate: '2026-03-10',
      total: '120.00',
    });
  });

  it('adds the next month to the move-in invoice after the chosen day, so the next invoice is the month after', () => {
    const quote = moveInQuote(terms({ startDate: '2026-02-20' }), settings({ billNextMonthAfterDay: 15 }), '2026-02-20');
    expect(amounts(quote.dueToday[0]!.lines)).toEqual(['38.57', '120.00']);
    expect(quote.totalDueToday).toBe('158.57');
    expect(quote.nextInvoice).toMatchObject({ periodStart: '2026-04-01', dueDate: '2026-04-01' });
  });

  it('puts the deposit and the admin fee on the move-in invoice, and only there', () => {
    const quote = moveInQuote(terms({ depositAmount: '50.00' }), settings({ adminFee: '20.00' }), '2026-02-10');
    expect(quote.dueToday[0]!.lines.map((l) => [l.kind, l.amount])).toEqual([
      ['prorated_rent', '81.43'],
      ['deposit', '50.00'],
      ['admin_fee', '20.00'],
    ]);
    expect(quote.totalDueToday).toBe('151.43');
    expect(quote.nextInvoice!.lines.map((l) => l.kind)).toEqual(['rent']);
  });

  it('a backdated lease owes at once every rent period issued by today; the first one not yet issued is next', () => {
    const quote = moveInQuote(terms({ startDate: '2026-01-10' }), settings({ issueDaysBefore: 5 }), '2026-03-03');
    expect(quote.dueToday.map((i) => [i.kind, i.periodStart, i.total])).toEqual([
      ['move-in', '2026-01-10', '85.16'],
      ['rent', '2026-02-01', '120.00'],
      ['rent', '2026-03-01', '120.00'],
    ]);
    expect(quote.totalDueToday).toBe('325.16');
    expect(quote.nextInvoice).toMatchObject({ periodStart: '2026-04-01', issueDate: '2026-03-27' });
  });

  it('a move-in days before the 1st also owes the next month, issued already', () => {
    const quote = moveInQuote(terms({ startDate: '2026-02-27' }), settings({ issueDaysBefore: 5 }), '2026-02-27');
    expect(quote.dueToday.map((i) => i.periodStart)).toEqual(['2026-02-27', '2026-03-01']);
    expect(quote.nextInvoice!.periodStart).toBe('2026-04-01');
  });

  it('a move-in on a later day owes only the move-in invoice now', () => {
    const quote = moveInQuote(terms({ startDate: '2026-03-15' }), settings({ issueDaysBefore: 5 }), '2026-03-01');
    expect(quote.dueToday.map((i) => i.kind)).toEqual(['move-in']);
    expect(quote.nextInvoice).toMatchObject({ periodStart: '2026-04-01', issueDate: '2026-03-27' });
  });
});

// The lease the billing engine bills: started on the terms, then billed period by period as
// billLease bills it (its loop, without the store): the next period of the lease's state, issued
// while the shared rule says so, recorded as lease_rent_billed.
const leaseId = '0b0e3f4c-9a8d-4c7b-8e6f-5d4c3b2a1f0e';
function billedAsBillLeaseBills(agreed: MoveInTerms, billing: BillingSettings, today: string) {
  const { protection = null, promotion = null, ...leaseTerms } = agreed;
  // The move-in's own append: the start, then the plan and the promotion chosen with it.
  const startedWith: DomainEvent[] = [
    { type: 'lease_started', data: { leaseId, customerId: leaseId, unitId: leaseId, facilityId: null, ...leaseTerms } },
    ...(protection
      ? [
          {
            type: 'lease_protection_changed' as const,
            data: { leaseId, customerId: leaseId, protection, effectiveDate: agreed.startDate, reason: 'chosen_at_move_in' as const },
          },
        ]
      : []),
    ...(promotion ? [{ type: 'lease_promotion_applied' as const, data: { leaseId, customerId: leaseId, promotion } }] : []),
  ];
  let lease: LeaseState = startedWith.reduce(evolveLease, initialLeaseState);
  const issued: BillingPeriod[] = [];
  for (let n = 0; n < MAX_PERIODS_AT_ONCE; n++) {
    const period = nextLeasePeriod(lease, billing);
    if (!period || !issuedBy(period, today)) return { issued, next: period };
    issued.push(period);
    lease = evolveLease(lease, {
      type: 'lease_rent_billed',
      data: { leaseId, invoiceId: leaseId, periodStart: period.periodStart, periodEnd: period.periodEnd },
    });
  }
  return { issued, next: nextLeasePeriod(lease, billing) };
}

const asQuoted = (period: BillingPeriod) => ({
  kind: period.kind,
  description: invoiceDescription(period),
  periodStart: period.periodStart,
  periodEnd: period.periodEnd,
  issueDate: period.issueDate,
  dueDate: period.dueDate,
  lines: period.lines,
  total: linesTotal(period.lines),
});

const cents = (max: bigint) => fc.bigInt({ min: 0n, max }).map(fromCents);
const firstDay = Date.UTC(2020, 0, 1);
const isoDay = fc.integer({ min: 0, max: 365 * 10 }).map((n) => new Date(firstDay + n * 86_400_000).toISOString().slice(0, 10));
/** 0 to 25 percent in thousandths, written as settings hold it (8.875). */
const taxRate = fc.integer({ min: 0, max: 25_000 }).map((m) => `${Math.floor(m / 1000)}.${String(m % 1000).padStart(3, '0')}`);
const arbitrarySettings = fc.record({
  billingDay: fc.constantFrom('first' as const, 'anniversary' as const),
  issueDaysBefore: fc.integer({ min: 0, max: 28 }),
  adminFee: cents(1_000_000n),
  prorateFirstMonth: fc.boolean(),
  billNextMonthAfterDay: fc.option(fc.integer({ min: 1, max: 28 })),
  salesTax: fc.record({ rent: taxRate, adminFee: taxRate, lateFee: taxRate, merchandise: taxRate }),
});
const arbitraryTerms = fc.record({
  startDate: isoDay,
  monthlyRate: fc.bigInt({ min: 1n, max: 10_000_000n }).map(fromCents),
  depositAmount: fc.option(cents(10_000_000n)),
  protection: fc.option(
    fc.record({
      planId: fc.constant('3f2b8d6e-1c4a-4e7b-9d2f-6a5c4b3e2d1f'),
      name: fc.constantFrom('Basic', 'Premium'),
      coverageAmount: fc.bigInt({ min: 1n, max: 10_000_000n }).map(fromCents),
      monthlyPremium: fc.bigInt({ min: 1n, max: 1_000_000n }).map(fromCents),
    }),
  ),
  promotion: fc.option(
    fc.record({
      promotionId: fc.constant('4a3c9e7f-2d5b-4f8c-8e3a-7b6d5c4f3e2a'),
      name: fc.constant('Offer'),
      terms: fc.oneof(
        fc.record({
          kind: fc.constant('percent_off' as const),
          percent: fc.integer({ min: 1, max: 10_000 }).map((bp) => `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`),
          months: fc.integer({ min: 1, max: 24 }),
        }),
        fc.record({
          kind: fc.constant('amount_off' as const),
          amount: fc.bigInt({ min: 1n, max: 10_000_000n }).map(fromCents),
          months: fc.integer({ min: 1, max: 24 }),
        }),
        fc.record({
          kind: fc.constant('fixed_price' as const),
          amount: fc.bigInt({ min: 1n, max: 10_000_000n }).map(fromCents),
          months: fc.integer({ min: 1, max: 24 }),
        }),
      ),
    }),
  ),
});

describe('the quote and the billing engine', () => {
  it('owes today exactly the invoices billLease issues at a move-in today, and names the one it issues next', () => {
    fc.assert(
      fc.property(arbitraryTerms, arbitrarySettings, fc.integer({ min: -120, max: 800 }), (agreed, chosen, daysAfterStart) => {
        const billing = settings(chosen);
        const today = addDays(agreed.startDate, daysAfterStart);
        const quote = moveInQuote(agreed, billing, today);
        const billed = billedAsBillLeaseBills(agreed, billing, today);
        expect(quote.dueToday).toEqual(billed.issued.map(asQuoted));
        expect(quote.nextInvoice).toEqual(billed.next && asQuoted(billed.next));
      }),
    );
  });

  it('totals each invoice and the amount due today from their lines, exactly', () => {
    fc.assert(
      fc.property(arbitraryTerms, arbitrarySettings, fc.integer({ min: -120, max: 800 }), (agreed, chosen, daysAfterStart) => {
        const quote = moveInQuote(agreed, settings(chosen), addDays(agreed.startDate, daysAfterStart));
        const sum = (amounts: string[]) => fromCents(amounts.reduce((total, amount) => total + toCents(amount), 0n));
        for (const invoice of [...quote.dueToday, ...(quote.nextInvoice ? [quote.nextInvoice] : [])]) {
          expect(invoice.total).toBe(sum(invoice.lines.map((l) => l.amount)));
        }
        expect(quote.totalDueToday).toBe(sum(quote.dueToday.flatMap((i) => i.lines.map((l) => l.amount))));
        expect(quote.dueToday[0]!.kind).toBe('move-in');
        expect(quote.nextInvoice!.kind).toBe('rent');
      }),
    );
  });
});
