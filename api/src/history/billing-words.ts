import { type BillingSettings, type InvoiceLine, invoiceLineKindLabels } from '@storage/contracts/billing';
import type { DelinquencyStep } from '@storage/contracts/delinquency';
import { type DelinquencyStepKind, delinquencyStepLabels, type PaymentMethod, paymentMethodLabels } from '@storage/contracts/enums';
import type { LeaseTerms } from '@storage/contracts/lease-terms';
import { formatDollars } from '@storage/contracts/money';
import { type LeasePromotion, type Promotion, promotionTermsWords } from '@storage/contracts/promotions';
import { type LeaseProtection, type ProtectionChangeReason, type ProtectionSettings, protectionChangeReasonLabels } from '@storage/contracts/protection';
import { BUSINESS_SETTINGS_SCOPE } from '@storage/contracts/settings';
import { describeAutopayEvent } from './autopay-words.ts';
import { describeMerchandiseEvent } from './merchandise-words.ts';
import type { Names } from './readable.ts';

// The billing engine's events in a manager's words, for history and the audit log: which invoice
// a fee went on, whose standing changed and why, how far a lease's rent is invoiced, and what
// billing settings a scope has now.

const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const dayText = (date: string) => day.format(new Date(`${date}T00:00:00Z`));

/** "due on the 1st, invoiced 5 days before; late fee $25.00 after 10 days; admin fee $0.00; first month prorated". */
export function billingSettingsText(settings: BillingSettings): string {
  const due = settings.billingDay === 'first' ? 'due on the 1st' : 'due on the lease anniversary';
  const fee =
    settings.lateFee.kind === 'fixed'
      ? `late fee ${formatDollars(settings.lateFee.amount)}`
      : `late fee ${settings.lateFee.percent}% (at least ${formatDollars(settings.lateFee.minimum)})`;
  const parts = [
    `${due}, invoiced ${settings.issueDaysBefore} days before`,
    `${fee} after ${settings.graceDays} days`,
    `admin fee ${formatDollars(settings.adminFee)}`,
    settings.prorateFirstMonth ? 'first month prorated' : 'first month in full',
    ...(settings.billNextMonthAfterDay ? [`move-ins after the ${settings.billNextMonthAfterDay}th also pay next month`] : []),
    ...(settings.moveOutCredit ? ['unused days credited at move-out'] : []),
    // Settings saved before the notice days existed have none: the default.
    ...((settings.rentChangeNoticeDays ?? 30) !== 30 ? [`rent changes need ${settings.rentChangeNoticeDays} days' notice`] : []),
  ];
  return parts.join('; ');
}

/** "Late Notice day 5; Lockout day 15 (over $50.00); ..." */
export function delinquencyScheduleText(steps: readonly DelinquencyStep[]): string {
  if (steps.length === 0) return 'no steps';
  return steps.map((s) => `${delinquencyStepLabels[s.kind]} day ${s.day}${s.threshold === '0.00' ? '' : ` (over ${formatDollars(s.threshold)})`}`).join('; ');
}

/** The ids these events name beyond their fields' own (a facility's settings name it by their scope). */
export function billingEventIds(type: string, data: Record<string, unknown>): Array<{ kind: 'facility'; id: string }> {
  if (
    (type === 'billing_settings_updated' || type === 'delinquency_settings_updated' || type === 'protection_settings_updated') &&
    typeof data.scope === 'string' &&
    data.scope !== BUSINESS_SETTINGS_SCOPE
  )
    return [{ kind: 'facility', id: data.scope }];
  return [];
}

/** A sentence for a billing event; null for any other event (it keeps its type in words). */
export function describeBillingEvent(type: string, data: Record<string, unknown>, names: Names): string | null {
  switch (type) {
    case 'invoice_line_added': {
      const line = data.line as InvoiceLine;
      const invoice = names('invoice', data.invoiceId as string) ?? 'the invoice';
      return `${invoiceLineKindLabels[line.kind] ?? 'Charge'} of ${formatDollars(line.amount)} added to ${invoice}`;
    }
    case 'customer_standing_changed': {
      const who = names('customer', data.customerId as string) ?? 'The renter';
      if (data.status === 'overdue') return `${who} is overdue: ${data.reason as string}`;
      if (data.status === 'active') return `${who} is in good standing again`;
      return `${who} marked ${data.status as string}: ${data.reason as string}`;
    }
    case 'lease_rent_billed': {
      const invoice = names('invoice', data.invoiceId as string);
      return `Rent invoiced through ${dayText(data.periodEnd as string)}${invoice ? ` (${invoice})` : ''}`;
    }
    case 'lease_rent_change_scheduled': {
      const reason = data.reason ? `: ${data.reason as string}` : '';
      return `Rent change scheduled: ${formatDollars(data.currentRate as string)} → ${formatDollars(data.newRate as string)} a month from ${dayText(data.effectiveDate as string)} (notice sent ${dayText(data.noticeDate as string)})${reason}`;
    }
    case 'lease_rent_change_cancelled':
      return `Rent change cancelled: ${data.reason as string}`;
    case 'lease_protection_changed': {
      const plan = data.protection as LeaseProtection | null;
      const reason = protectionChangeReasonLabels[data.reason as ProtectionChangeReason] ?? String(data.reason);
      const from = dayText(data.effectiveDate as string);
      return plan
        ? `Protection plan ${plan.name} (${formatDollars(plan.coverageAmount)} coverage, ${formatDollars(plan.monthlyPremium)} a month) from ${from}: ${reason}`
        : `No protection plan from ${from}: ${reason}`;
    }
    case 'lease_insurance_proof_recorded':
      return `Proof of insurance on file: ${data.carrier as string}, policy ${data.policyNumber as string}, until ${dayText(data.expiresOn as string)}`;
    case 'lease_promotion_applied': {
      const promotion = data.promotion as LeasePromotion;
      return `Promotion ${promotion.name} applied: ${promotionTermsWords(promotion.terms)}`;
    }
    case 'protection_settings_updated': {
      const settings = data.settings as ProtectionSettings | null;
      const plans = settings
        ? settings.plans.length
          ? settings.plans.map((p) => `${p.name} ${formatDollars(p.monthlyPremium)} a month`).join(', ')
          : 'none'
        : null;
      if (data.scope === BUSINESS_SETTINGS_SCOPE) return `Protection plans saved: ${plans ?? 'none'}`;
      const facility = names('facility', data.scope as string) ?? 'A facility';
      return plans === null ? `${facility} uses the business's protection plans again` : `${facility} has protection plans of its own: ${plans}`;
    }
    case 'lease_terms_updated': {
      const terms = data.terms as LeaseTerms | null;
      const count = terms && `${terms.additionalTerms.length} additional term${terms.additionalTerms.length === 1 ? '' : 's'}`;
      if (data.facilityId === null) return `Lease agreement terms saved: ${count ?? 'no additional terms'}`;
      const facility = names('facility', data.facilityId as string) ?? 'A facility';
      return count === null ? `${facility} uses the business's lease agreement terms again` : `${facility} has lease agreement terms of its own: ${count}`;
    }
    case 'promotions_updated': {
      const promotions = data.promotions as Promotion[];
      const active = promotions.filter((p) => p.active).map((p) => p.name);
      return `Promotions saved: ${promotions.length} (${active.length ? `offered: ${active.join(', ')}` : 'none offered'})`;
    }
    case 'billing_settings_updated': {
      const settings = data.settings as BillingSettings | null;
      if (data.scope === BUSINESS_SETTINGS_SCOPE) {
        return settings ? `Billing settings saved: ${billingSettingsText(settings)}` : 'Billing settings back to the defaults';
      }
      const facility = names('facility', data.scope as string) ?? 'A facility';
      return settings
        ? `${facility} has billing settings of its own: ${billingSettingsText(settings)}`
        : `${facility} uses the business's billing settings again`;
    }
    case 'delinquency_settings_updated': {
      const steps = data.steps as DelinquencyStep[] | null;
      if (data.scope === BUSINESS_SETTINGS_SCOPE) {
        return steps ? `Delinquency schedule saved: ${delinquencyScheduleText(steps)}` : 'Delinquency schedule back to the default';
      }
      const facility = names('facility', data.scope as string) ?? 'A facility';
      return steps
        ? `${facility} has a delinquency schedule of its own: ${delinquencyScheduleText(steps)}`
        : `${facility} uses the business's delinquency schedule again`;
    }
    case 'delinquency_step_taken': {
      const who = names('customer', data.customerId as string) ?? 'The renter';
      const invoice = names('invoice', data.invoiceId as string) ?? 'an invoice';
      const label = delinquencyStepLabels[data.kind as DelinquencyStepKind] ?? 'Delinquency step';
      return `${label} for ${who} on ${dayText(data.date as string)}: day ${data.day as number} after ${invoice} was due, ${formatDollars(data.pastDue as string)} past due`;
    }
    case 'delinquency_cleared': {
      const who = names('customer', data.customerId as string) ?? 'The renter';
      return `${who}'s delinquency cleared on ${dayText(data.date as string)} (${formatDollars(data.pastDue as string)} past due): ${data.reason as string}`;
    }
    case 'delinquency_paused': {
      const who = names('customer', data.customerId as string) ?? 'the renter';
      return `Delinquency schedule of ${who} paused until ${dayText(data.until as string)}: ${data.reason as string}`;
    }
    case 'delinquency_resumed': {
      const who = names('customer', data.customerId as string) ?? 'the renter';
      return `Delinquency schedule of ${who} resumed: ${data.reason as string}`;
    }
    case 'payment_refund_requested': {
      const invoice = names('invoice', data.invoiceId as string) ?? 'the invoice';
      const method = paymentMethodLabels[data.method as PaymentMethod]?.toLowerCase() ?? 'payment';
      return `Refund of ${formatDollars(data.amount as string)} (${method}) on ${invoice} requested from the payment provider: ${data.reason as string}`;
    }
    case 'payment_refund_issued': {
      const invoice = names('invoice', data.invoiceId as string) ?? 'the invoice';
      const method = paymentMethodLabels[data.method as PaymentMethod]?.toLowerCase() ?? 'payment';
      // The money is owed again: the invoice is open (sent, or overdue past its due date).
      const reopened = data.invoiceStatus === 'sent' || data.invoiceStatus === 'overdue' ? `; ${invoice} is now ${data.invoiceStatus as string}` : '';
      return `Refund of ${formatDollars(data.amount as string)} (${method}) on ${invoice}: ${data.reason as string}${reopened}`;
    }
    case 'account_credit_refunded': {
      const who = names('customer', data.customerId as string) ?? 'the renter';
      const method = paymentMethodLabels[data.method as PaymentMethod]?.toLowerCase() ?? 'money';
      return `Credit of ${formatDollars(data.amount as string)} refunded to ${who} (${method}): ${data.reason as string}`;
    }
    case 'lease_move_out_scheduled': {
      const unit = names('unit', data.unitId as string);
      const deposit =
        data.deposit === 'apply'
          ? '; the deposit will be applied to the balance'
          : data.deposit === 'return'
            ? `; the deposit will be returned (${paymentMethodLabels[(data.depositMethod as PaymentMethod | null) ?? 'check']?.toLowerCase() ?? 'check'})`
            : '';
      return `Move-out${unit ? ` from unit ${unit}` : ''} scheduled for ${dayText(data.endDate as string)} (on ${dayText(data.scheduledOn as string)})${deposit}`;
    }
    case 'lease_move_out_cancelled': {
      const reason = data.reason ? `: ${data.reason as string}` : '';
      return `Move-out on ${dayText(data.endDate as string)} cancelled on ${dayText(data.cancelledOn as string)}${reason}`;
    }
    case 'lease_deposit_settled': {
      const amount = formatDollars(data.amount as string);
      if (data.disposition === 'applied') return `Deposit of ${amount} applied to the balance at move-out`;
      const method = paymentMethodLabels[(data.method as PaymentMethod | null) ?? 'check']?.toLowerCase() ?? 'check';
      return `Deposit of ${amount} returned at move-out (${method})`;
    }
    // Access (issue 13): never the code itself (a secret, redacted before it gets here).
    case 'gate_code_assigned':
      if (data.reason === 'rotated') return 'Gate code rotated: the old code no longer opens the gate';
      return data.awaitingSignature ? 'Gate code assigned at move-in: it opens the gate once the lease is signed' : 'Gate code assigned at move-in';
    case 'gate_code_suspended':
      if (data.reason === 'unsigned') return 'Gate code waits for the lease to be signed';
      return data.reason === 'lockout' ? 'Gate code suspended: lockout' : 'Gate code suspended: moved out';
    case 'gate_code_activated':
      return 'Lease signed: the gate code opens the gate';
    case 'gate_code_reinstated':
      return `Gate code reinstated: ${data.reason as string}`;
    case 'lock_desired_state_changed':
      return `Lock should be ${data.desired === 'overlocked' ? 'overlocked' : 'normal'}: ${data.reason as string}`;
    case 'lock_state_reported':
      return `The gateway reports the lock ${data.reported === 'overlocked' ? 'overlocked' : 'normal'}`;
    case 'access_attempted':
      return `${data.via === 'gate_code' ? 'Gate code' : 'Lock'} ${data.granted ? 'granted' : 'denied'}: ${data.reason as string}`;
    default:
      return describeAutopayEvent(type, data, names) ?? describeMerchandiseEvent(type, data, names);
  }
}
