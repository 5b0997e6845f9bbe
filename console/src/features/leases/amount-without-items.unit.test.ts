import { fromCents, toCents } from '@storage/contracts/money';
import { describe, expect, it } from 'vitest';
import { amountWithoutItems } from './amount-without-items.ts';

// Over a grid of amounts, move-in dues and item totals (in cents, around the edges where the
// amount meets each due): what the payment keeps when the items were not sold.
const cents = [0n, 1n, 2n, 99n, 100n, 101n, 250n, 2_680n, 22_680n];
/** `amount` paid into each due in turn, oldest first: what each got, and last what was left (credit). */
function oldestFirst(amount: bigint, dues: bigint[]): bigint[] {
  let left = amount;
  const got = dues.map((due) => {
    let part = due;
    if (left < due) part = left;
    left -= part;
    return part;
  });
  return [...got, left];
}

const grid = cents.flatMap((amount) => cents.flatMap((moveIn) => cents.map((items) => ({ amount: amount + 1n, moveIn, items }))));

describe('the Move In payment once the items were not sold', () => {
  it('takes all that was for the move-in and its credit, and nothing that was for the items', () => {
    for (const { amount, moveIn, items } of grid) {
      const kept = toCents(amountWithoutItems(fromCents(amount), fromCents(moveIn), fromCents(items)));
      const [forMoveIn, , credit] = oldestFirst(amount, [moveIn, items]);
      // What went to the move-in is all kept; what went past it to the items is not; the rest (credit) is.
      expect(kept, `${amount} paying ${moveIn} then ${items}`).toBe(forMoveIn! + credit!);
      expect(kept <= amount).toBe(true);
    }
  });

  it('is the move-in’s Due today when the amount followed Due today with the items', () => {
    expect(amountWithoutItems('281.22', '226.80', '54.42')).toBe('226.80');
  });

  it('keeps less than the move-in’s due as typed, and credit past both', () => {
    expect(amountWithoutItems('100.00', '226.80', '54.42')).toBe('100.00');
    expect(amountWithoutItems('300.00', '226.80', '54.42')).toBe('245.58');
  });

  it('leaves the amount as typed when a quote is not known', () => {
    expect(amountWithoutItems('281.22', null, '54.42')).toBe('281.22');
    expect(amountWithoutItems('281.22', '226.80', null)).toBe('281.22');
  });
});
