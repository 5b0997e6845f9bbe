import { describe, expect, it } from 'vitest';
import { describeMerchandiseEvent } from './merchandise-words.ts';
import type { Names } from './readable.ts';

const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const names: Names = (kind, id) => (kind === 'customer' && id === customerId ? 'Jane Doe' : undefined);

describe('merchandise events in words', () => {
  it.each([
    ['merchandise_item_added', { name: 'Disc lock', price: '24.99', taxable: true, stock: 5 }, 'Item added: Disc lock at $24.99, taxed, 5 in stock'],
    [
      'merchandise_item_added',
      { name: 'Lock cut fee', price: '35.00', taxable: false, stock: null },
      'Item added: Lock cut fee at $35.00, not taxed, not counted',
    ],
    ['merchandise_item_changed', { name: 'Disc lock', price: '26.00', taxable: true, active: false }, 'Item set: Disc lock at $26.00, taxed, retired'],
    ['merchandise_restocked', { quantity: 10, stockAfter: 15 }, 'Restocked 10: 15 in stock'],
    ['merchandise_stock_adjusted', { stockBefore: 8, stockAfter: 7, reason: 'One damaged' }, 'Stock counted: 8 → 7 (One damaged)'],
    ['merchandise_sold', { name: 'Disc lock', quantity: 2, price: '24.99', customerId, stockAfter: 3 }, 'Sold Disc lock × 2 at $24.99 to Jane Doe: 3 in stock'],
    ['merchandise_sale_undone', { quantity: 2, stockAfter: 5, reason: 'Sale not completed' }, 'Sale undone, 2 put back (5 in stock): Sale not completed'],
  ])('%s: %j', (type, data, words) => {
    expect(describeMerchandiseEvent(type, data, names)).toBe(words);
  });

  it('names no renter it does not know, and says nothing of other events', () => {
    expect(describeMerchandiseEvent('merchandise_sold', { name: 'Tape', quantity: 1, price: '4.00', customerId: 'x', stockAfter: null }, names)).toBe(
      'Sold Tape × 1 at $4.00 to a renter: not counted',
    );
    expect(describeMerchandiseEvent('invoice_sent', {}, names)).toBeNull();
  });
});
