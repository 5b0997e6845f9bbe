import { fromCents, toCents } from '@storage/contracts/money';

// How one payment spreads over invoices already put in the order it pays them (desk.ts decides
// which invoices and that order, on their streams). Pure, so the receipt a desk or portal payment
// records and the plan Take Payment shows before it is taken come from the same arithmetic.

/** An invoice a payment may pay, with what it still owes. */
export interface Owed {
  invoiceId: string;
  openBalance: string;
}

export interface Allocation {
  invoiceId: string;
  amount: string;
}

/**
 * `total` pays `invoices` in the order given, each as far as it owes, part of the last one when it
 * runs out; what is left over is `credit`. An invoice that owes nothing takes nothing.
 */
export function allocatePayment(total: string, invoices: readonly Owed[]): { allocations: Allocation[]; credit: string } {
  const allocations: Allocation[] = [];
  let left = toCents(total);
  for (const invoice of invoices) {
    if (left <= 0n) break;
    const open = toCents(invoice.openBalance);
    const amount = open < left ? open : left;
    if (amount <= 0n) continue;
    allocations.push({ invoiceId: invoice.invoiceId, amount: fromCents(amount) });
    left -= amount;
  }
  return { allocations, credit: fromCents(left) };
}
