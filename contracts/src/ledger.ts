import { z } from 'zod';
import { IsoDate } from './fields.ts';

// A renter's ledger: every money event of their account in order (charges, late fees, payments,
// credits, refunds, write-offs, voids) with a running balance, as of any date. Staff read it on the
// customer page and as a PDF statement; the renter reads their own in the portal.

export const LedgerEntryKind = z.enum(['charge', 'late_fee', 'payment', 'credit', 'refund', 'write_off', 'void']);
export type LedgerEntryKind = z.infer<typeof LedgerEntryKind>;

/** How a statement names each kind of entry (the same words for staff and for the renter). */
export const ledgerEntryKindLabels: Record<LedgerEntryKind, string> = {
  charge: 'Charge',
  late_fee: 'Late fee',
  payment: 'Payment',
  credit: 'Credit',
  refund: 'Refund',
  write_off: 'Written off',
  void: 'Voided',
};

/** `asOf`: the last day the statement covers (default: today in the renter's facility); `from`: the first (earlier entries make the opening balance). */
export const LedgerQuery = z.strictObject({ asOf: IsoDate.optional(), from: IsoDate.optional() });
export type LedgerQuery = z.input<typeof LedgerQuery>;

const Amount = z.string().regex(/^-?\d+\.\d{2}$/);

export const LedgerEntry = z.object({
  id: z.string(),
  /** The facility's date of the entry. */
  date: IsoDate,
  kind: LedgerEntryKind,
  description: z.string(),
  invoiceNumber: z.string().nullable(),
  /** Signed: a charge is positive; a payment, credit or write-off negative. */
  amount: Amount,
  /** What the renter owes after this entry (negative: money in their favour). */
  balance: Amount,
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export const Ledger = z.object({
  customer: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), address: z.string().nullable() }),
  asOf: IsoDate,
  /** The first day shown, when `from` was given. */
  from: IsoDate.nullable(),
  /** The balance before the first entry shown ("0.00" without `from`). */
  openingBalance: Amount,
  entries: z.array(LedgerEntry),
  /** What the renter owes as of `asOf`. */
  balance: Amount,
});
export type Ledger = z.infer<typeof Ledger>;
