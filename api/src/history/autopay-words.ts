import { formatDollars } from '@storage/contracts/money';
import type { Names } from './readable.ts';

// Autopay's events in a manager's words: the card saved (never a number), autopay on or off, and
// each charge attempt with its outcome and what happens next.

const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const dayText = (date: string) => day.format(new Date(`${date}T00:00:00Z`));
const brandText = (brand: string) => brand.charAt(0).toUpperCase() + brand.slice(1);

/** A sentence for an autopay event; null for any other event. */
export function describeAutopayEvent(type: string, data: Record<string, unknown>, names: Names): string | null {
  const invoice = () => names('invoice', data.invoiceId as string) ?? 'the invoice';
  switch (type) {
    case 'payment_method_saved':
      return `Card saved: ${brandText(data.brand as string)} ending in ${data.last4 as string}, expires ${String(data.expMonth).padStart(2, '0')}/${data.expYear as number}`;
    case 'payment_method_removed':
      return 'Saved card removed';
    case 'autopay_enrolled':
      return 'Autopay turned on';
    case 'autopay_cancelled':
      return `Autopay turned off: ${data.reason as string}`;
    case 'autopay_charge_attempted':
      return `Autopay charge ${data.attempt as number} of ${formatDollars(data.amount as string)} for ${invoice()} (${dayText(data.date as string)})`;
    case 'autopay_charge_succeeded':
      return `Autopay charged ${formatDollars(data.amount as string)} for ${invoice()}`;
    case 'autopay_charge_failed': {
      const next = data.nextAttemptOn
        ? `next try ${dayText(data.nextAttemptOn as string)}`
        : data.requiresAction
          ? 'the renter must pay in the portal'
          : 'no more tries';
      return `Autopay charge ${data.attempt as number} of ${formatDollars(data.amount as string)} for ${invoice()} failed: ${data.reason as string}; ${next}`;
    }
    default:
      return null;
  }
}
