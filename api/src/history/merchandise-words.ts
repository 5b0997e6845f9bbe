import { formatDollars } from '@storage/contracts/money';
import type { Names } from './readable.ts';

// Merchandise events in a manager's words: an item as set, its stock as it moved, each sale.

const stockText = (stock: unknown) => (stock === null ? 'not counted' : `${stock as number} in stock`);
const taxText = (taxable: unknown) => (taxable ? 'taxed' : 'not taxed');

/** A sentence for a merchandise event; null for any other event. */
export function describeMerchandiseEvent(type: string, data: Record<string, unknown>, names: Names): string | null {
  switch (type) {
    case 'merchandise_item_added':
      return `Item added: ${data.name as string} at ${formatDollars(data.price as string)}, ${taxText(data.taxable)}, ${stockText(data.stock)}`;
    case 'merchandise_item_changed':
      return `Item set: ${data.name as string} at ${formatDollars(data.price as string)}, ${taxText(data.taxable)}${data.active ? '' : ', retired'}`;
    case 'merchandise_restocked':
      return `Restocked ${data.quantity as number}: ${stockText(data.stockAfter)}`;
    case 'merchandise_stock_adjusted':
      return `Stock counted: ${data.stockBefore as number} → ${data.stockAfter as number} (${data.reason as string})`;
    case 'merchandise_sold': {
      const buyer = names('customer', data.customerId as string) ?? 'a renter';
      return `Sold ${data.name as string} × ${data.quantity as number} at ${formatDollars(data.price as string)} to ${buyer}: ${stockText(data.stockAfter)}`;
    }
    case 'merchandise_sale_undone':
      return `Sale undone, ${data.quantity as number} put back (${stockText(data.stockAfter)}): ${data.reason as string}`;
    default:
      return null;
  }
}
