import { fromCents, toCents } from '@storage/contracts/money';

/**
 * The Move In's payment once the items were not sold: the amount less what it would have paid on
 * their invoice. The desk payment pays the oldest invoice first (the move-in's), then the items',
 * then keeps the rest as credit; so only what went past the move-in's Due today, up to the items'
 * total, was for them. Either quote unknown: the amount as typed.
 */
export function amountWithoutItems(amount: string, moveInDue: string | null, itemsTotal: string | null): string {
  if (moveInDue === null || itemsTotal === null) return amount;
  const paid = toCents(amount);
  let forItems = paid - toCents(moveInDue);
  if (forItems < 0n) forItems = 0n;
  if (forItems > toCents(itemsTotal)) forItems = toCents(itemsTotal);
  return fromCents(paid - forItems);
}
