import type { PaymentMethod } from '@storage/contracts/enums';
import type { DomainEvent, EventData } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';

// A renter's account (stream `account-<customerId>`): credit that no invoice has taken yet, from an
// overpayment at the desk or given by staff, and where it went. Credits and applications are named
// by ids derived from what caused them, so a retry records each once.

/** How a payment over the renter's invoices was planned: at the desk, or by card in the portal. */
export interface ReceiptPlan extends Omit<EventData<'desk_payment_received'>, 'customerId' | 'method'> {
  method: PaymentMethod;
  stripePaymentIntentId: string | null;
}

export interface AccountState {
  /** Every invoice of the renter's, in the order they were listed (account_invoice_listed). */
  invoiceIds: ReadonlySet<string>;
  creditIds: ReadonlySet<string>;
  /** Credit handed back to the renter, by refund id. */
  refundIds: ReadonlySet<string>;
  /** Desk and portal payments by receipt id: how each was planned across invoices. */
  receipts: ReadonlyMap<string, ReceiptPlan>;
  /** applicationId → the amount taken. */
  applications: ReadonlyMap<string, string>;
  balanceCents: bigint;
}

export const initialAccountState: AccountState = {
  invoiceIds: new Set(),
  creditIds: new Set(),
  refundIds: new Set(),
  receipts: new Map(),
  applications: new Map(),
  balanceCents: 0n,
};

export function evolveAccount(state: AccountState, event: DomainEvent): AccountState {
  switch (event.type) {
    case 'account_invoice_listed':
      return { ...state, invoiceIds: new Set([...state.invoiceIds, event.data.invoiceId]) };
    case 'account_credited':
      return { ...state, creditIds: new Set([...state.creditIds, event.data.creditId]), balanceCents: state.balanceCents + toCents(event.data.amount) };
    case 'desk_payment_received': {
      const { customerId: _customer, ...plan } = event.data;
      return withReceipt(state, { ...plan, stripePaymentIntentId: null });
    }
    case 'portal_payment_received': {
      const { customerId: _customer, ...plan } = event.data;
      return withReceipt(state, { ...plan, method: 'card', reference: null });
    }
    case 'account_credit_applied':
      return {
        ...state,
        applications: new Map([...state.applications, [event.data.applicationId, event.data.amount]]),
        balanceCents: state.balanceCents - toCents(event.data.amount),
      };
    case 'account_credit_refunded':
      return {
        ...state,
        refundIds: new Set([...state.refundIds, event.data.refundId]),
        balanceCents: state.balanceCents - toCents(event.data.amount),
      };
    default:
      return state;
  }
}

function withReceipt(state: AccountState, plan: ReceiptPlan): AccountState {
  return { ...state, receipts: new Map([...state.receipts, [plan.receiptId, plan]]), balanceCents: state.balanceCents + toCents(plan.credit) };
}

export const accountAggregate = { initial: initialAccountState, evolve: evolveAccount };

export const accountBalance = (state: AccountState) => fromCents(state.balanceCents);
