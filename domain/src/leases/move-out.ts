import { type InvoiceLine, noSalesTax, type SalesTaxRates } from '@storage/contracts/billing';
import type { DeskPaymentMethod } from '@storage/contracts/enums';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import type { Position } from '@storage/eventstore/port';
import { creditAccount, refundCredit } from '../accounts/commands.ts';
import { payFromCredit } from '../accounts/pay-from-credit.ts';
import { openInvoices, renterInvoices } from '../accounts/receivables.ts';
import { addDays, daysInclusive, daysInMonth, endOfMonth, periodWords } from '../billing/calendar.ts';
import { leaseInvoiceId } from '../billing/lease-billing.ts';
import { type LeaseForBilling, linesTotal, proratedRent, rateOn, withRentExtras, withSalesTax } from '../billing/periods.ts';
import { billingSettingsFor } from '../billing/settings.ts';
import { derivedId } from '../commands/derived-id.ts';
import { type CommandContext, handleCommand, loadAggregate } from '../commands/handle.ts';
import { afterPaymentRecorded } from '../invoices/commands.ts';
import { invoiceAggregate, unrefunded } from '../invoices/invoice.ts';
import { endLease } from './commands.ts';
import { type LeaseState, leaseAggregate } from './lease.ts';

// Move-out: the lease ends (the billing run bills nothing after its end day; what is still owed
// stays owed), then the money of the move-out, each step an event named from the lease, so a
// repeated move-out records nothing twice:
// - with the billing setting moveOutCredit, the unused days of a period already invoiced (after
//   the end day, up to what is billed) are credited: rent × unused days ÷ days in their month,
//   rounded half up to the cent, month by month (the engine's proration rule), with what rode on
//   that rent (a promotion's discount, the protection premium) and the sales tax of each;
// - the deposit the renter paid is, as staff choose, returned (credited, then handed back as a
//   refund of that credit: the statement shows both) or applied (credited, and the credit pays
//   what the renter still owes, oldest invoice first; any rest stays as credit). The choice is
//   recorded on the lease (lease_deposit_settled): a repeat follows the first choice.
// What counts as the deposit paid: the move-in invoice's payments (net of refunds) pay its other
// lines first, so a move-in invoice paid in part holds only what is left of the payments.

export interface MoveOut {
  endDate: string;
  /** Absent: the deposit is not touched. */
  deposit?: 'return' | 'apply' | undefined;
  /** How a returned deposit is handed back (a check unless said). */
  depositMethod?: DeskPaymentMethod | undefined;
}

type EndedLease = Extract<LeaseState, { status: 'ended' }>;

/**
 * The rate a day was invoiced at: that of the period it fell in, which is the last one invoiced
 * for a day on or after its start (a rent change applies from the first period starting on or after
 * its effective date); an earlier day's is the rate on that day.
 */
function unusedDayRate(lease: Pick<EndedLease, 'terms'> & Partial<Pick<EndedLease, 'lastPeriodStart' | 'rentChanges'>>, day: string): string {
  const changes = (lease.rentChanges ?? []).filter((change) => !change.cancelled);
  const periodStart = lease.lastPeriodStart && lease.lastPeriodStart <= day ? lease.lastPeriodStart : day;
  return rateOn({ monthlyRate: lease.terms.monthlyRate, rentChanges: changes }, periodStart);
}

/**
 * The credit of unused days after the end day, up to what is billed; null when there are none.
 * What those days were charged, month by month: their rent prorated, less the promotion's discount
 * on it, with the protection premium for them, and the sales tax of each (`salesTax`: the
 * facility's rates), by the billing engine's own lines and rounding.
 */
export function unusedDaysCredit(
  lease: Pick<EndedLease, 'billedThrough' | 'endDate' | 'terms'> & Partial<Pick<EndedLease, 'lastPeriodStart' | 'rentChanges' | 'protection' | 'promotion'>>,
  salesTax: SalesTaxRates = noSalesTax,
): { amount: string; words: string } | null {
  if (lease.billedThrough === null || lease.billedThrough <= lease.endDate) return null;
  const billing: LeaseForBilling = {
    startDate: lease.terms.startDate,
    monthlyRate: lease.terms.monthlyRate,
    depositAmount: null,
    billedThrough: lease.billedThrough,
    endDate: lease.endDate,
    protection: lease.protection ?? [],
    promotion: lease.promotion ?? null,
  };
  let cents = 0n;
  const first = addDays(lease.endDate, 1);
  for (let start = first; start <= lease.billedThrough; ) {
    const monthEnd = endOfMonth(start);
    const end = monthEnd < lease.billedThrough ? monthEnd : lease.billedThrough;
    const days = daysInclusive(start, end);
    const rent: InvoiceLine = {
      kind: 'prorated_rent',
      description: `Unused days ${periodWords(start, end)}`,
      amount: proratedRent(unusedDayRate(lease, start), days, daysInMonth(start)),
      periodStart: start,
      periodEnd: end,
    };
    cents += toCents(linesTotal(withSalesTax(withRentExtras(billing, rent), salesTax)));
    start = addDays(end, 1);
  }
  if (cents <= 0n) return null;
  return { amount: fromCents(cents), words: `Unused days ${periodWords(first, lease.billedThrough)} at move-out` };
}

/** The deposit the renter paid on the move-in invoice (payments pay its other lines first). */
async function depositPaid(ctx: CommandContext, lease: EndedLease): Promise<string> {
  const { state: invoice } = await loadAggregate(ctx.store, streams.invoice(leaseInvoiceId(lease.leaseId, lease.terms.startDate)), invoiceAggregate);
  if (invoice.status !== 'current') return '0.00';
  const deposit = invoice.fields.lines.filter((l) => l.kind === 'deposit').reduce((sum, l) => sum + toCents(l.amount), 0n);
  const paid = invoice.payments.reduce((sum, p) => sum + toCents(unrefunded(p)), 0n);
  const held = paid - (toCents(invoice.fields.amount) - deposit);
  return fromCents(held < 0n ? 0n : held > deposit ? deposit : held);
}

/** Ends the lease and settles its money (see above); repeating it finishes what a failed attempt left undone. */
export async function moveOut(ctx: CommandContext, leaseId: string, request: MoveOut) {
  const ended = await endLease(ctx, leaseId, request.endDate);
  let position: Position | null = ended.position;
  const lease = ended.state;
  if (lease.status !== 'ended') return { ...ended, position };
  const { customerId, facilityId } = lease.terms;
  const track = (result: { position: Position | null } | null) => {
    if (result?.position) position = result.position;
  };

  const settings = await billingSettingsFor(ctx.store, facilityId);
  if (settings.moveOutCredit === true) {
    const unused = unusedDaysCredit(lease, settings.salesTax);
    if (unused) {
      track(
        await creditAccount(ctx, customerId, { creditId: derivedId('move-out-credit', leaseId), amount: unused.amount, reason: unused.words, receiptId: null }),
      );
    }
  }

  let state: LeaseState = lease;
  if (request.deposit && !lease.deposit) {
    const amount = await depositPaid(ctx, lease);
    if (toCents(amount) > 0n) {
      const settled = await handleCommand(ctx, streams.lease(leaseId), leaseAggregate, (current): DomainEvent[] => {
        if ((current.status !== 'ended' && current.status !== 'active') || current.deposit) return [];
        const returned = request.deposit === 'return';
        return [
          {
            type: 'lease_deposit_settled',
            data: { leaseId, customerId, amount, disposition: returned ? 'returned' : 'applied', method: returned ? (request.depositMethod ?? 'check') : null },
          },
        ];
      });
      track(settled);
      state = settled.state;
    }
  }
  const deposit = state.status === 'ended' ? state.deposit : undefined;
  if (deposit) {
    const reason = deposit.disposition === 'returned' ? 'Deposit returned at move-out' : 'Deposit applied to the balance at move-out';
    track(await creditAccount(ctx, customerId, { creditId: derivedId('move-out-deposit', leaseId), amount: deposit.amount, reason, receiptId: null }));
    if (deposit.disposition === 'returned') {
      track(
        await refundCredit(ctx, customerId, {
          refundId: derivedId('move-out-deposit-returned', leaseId),
          amount: deposit.amount,
          method: deposit.method ?? 'check',
          reference: null,
          reason,
        }),
      );
    }
  }

  // Credit of the move-out pays what the renter still owes, oldest first.
  for (const invoice of openInvoices(await renterInvoices(ctx, customerId))) {
    const paid = await payFromCredit(ctx, invoice.invoiceId, invoice);
    if (paid) position = paid;
  }
  track(await afterPaymentRecorded(ctx, customerId));
  return { ...ended, state, position };
}
