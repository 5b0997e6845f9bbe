import type { InvoiceLine, SalesTaxRates } from '@storage/contracts/billing';
import { fromCents, toCents } from '@storage/contracts/money';
import { linesTotal, taxLineFor } from '../billing/periods.ts';

// The invoice lines of merchandise sold (at the desk, or with a move-in): one line per item,
// "<name> × <qty>" at price × qty, each taxable item followed by its sales tax line, worked out by
// the billing engine's own tax rule at the merchandise rate.

export type SoldItem = { name: string; price: string; taxable: boolean };

/** The lines of `items`, each sold `quantities[i]` times (a whole number, 1 or more). */
export function merchandiseLines(items: readonly SoldItem[], quantities: readonly number[], salesTax: SalesTaxRates): InvoiceLine[] {
  if (items.length !== quantities.length) throw new Error('Each item needs its quantity');
  return items.flatMap((item, index) => {
    const quantity = quantities[index]!;
    if (!Number.isSafeInteger(quantity) || quantity < 1) throw new Error(`A quantity must be a whole number, 1 or more: ${quantity}`);
    const line: InvoiceLine = {
      kind: 'merchandise',
      description: `${item.name} × ${quantity}`,
      amount: fromCents(toCents(item.price) * BigInt(quantity)),
      periodStart: null,
      periodEnd: null,
    };
    const tax = item.taxable ? taxLineFor(line, salesTax) : null;
    return tax ? [line, tax] : [line];
  });
}

/** What the lines come to, exact. */
export function merchandiseTotal(lines: readonly InvoiceLine[]): string {
  return linesTotal(lines);
}
