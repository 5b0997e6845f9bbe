import type { ConfirmTestPaymentResponse, CreatePaymentIntentResponse, PaymentConfig, PaymentRecordedResponse } from '@storage/contracts/payments';
import type { PortalInvoice } from '@storage/contracts/portal';
import { apiRequest } from '@storage/web-client/api';

// What the checkout keeps in session storage while a payment is under way (spec: Checkout), so
// the success page can report the payment for the right invoice and customer. The renter's email
// is neither kept nor put in any URL: the portal session knows who they are. A payment toward the
// whole balance keeps no invoice.
const storageKeys = { invoiceId: 'currentInvoiceId', customerId: 'currentCustomerId', paid: 'currentPayment' };

export interface CheckoutSession {
  /** Null for a payment toward the whole balance. */
  invoiceId: string | null;
  customerId: string;
}

export function rememberCheckout(session: CheckoutSession): void {
  sessionStorage.setItem(storageKeys.customerId, session.customerId);
  if (session.invoiceId) sessionStorage.setItem(storageKeys.invoiceId, session.invoiceId);
  else sessionStorage.removeItem(storageKeys.invoiceId);
}

export function rememberedCheckout(): { invoiceId?: string; customerId: string } | null {
  const invoiceId = sessionStorage.getItem(storageKeys.invoiceId);
  const customerId = sessionStorage.getItem(storageKeys.customerId);
  if (!customerId) return null;
  return invoiceId ? { invoiceId, customerId } : { customerId };
}

export function forgetCheckout(): void {
  for (const key of Object.values(storageKeys)) sessionStorage.removeItem(key);
  // Left by earlier versions of the checkout.
  sessionStorage.removeItem('currentCustomerEmail');
}

/**
 * The amount of the payment under way (its intent's), kept until the server has recorded it:
 * when the server cannot say yet, the result page still shows what the renter paid.
 */
export function rememberPayment(paymentIntentId: string, amount: string): void {
  sessionStorage.setItem(storageKeys.paid, JSON.stringify({ paymentIntentId, amount }));
}

/** The amount remembered for this payment, or null. */
export function rememberedPaymentAmount(paymentIntentId: string): string | null {
  try {
    const paid = JSON.parse(sessionStorage.getItem(storageKeys.paid) ?? 'null') as { paymentIntentId?: unknown; amount?: unknown } | null;
    return paid?.paymentIntentId === paymentIntentId && typeof paid.amount === 'string' ? paid.amount : null;
  } catch {
    return null;
  }
}

export async function loadPaymentConfig(): Promise<PaymentConfig> {
  return (await apiRequest('GET', '/api/payments/config')).json() as Promise<PaymentConfig>;
}

/** The portal session's invoices (the session names the customer). */
export async function loadCustomerInvoices(): Promise<PortalInvoice[]> {
  return (await apiRequest('GET', '/api/customer/invoices')).json() as Promise<PortalInvoice[]>;
}

export async function createPaymentIntent(invoice: PortalInvoice): Promise<CreatePaymentIntentResponse> {
  const body = { amount: invoice.amount, invoiceId: invoice.id };
  return (await apiRequest('POST', '/api/create-payment-intent', body)).json() as Promise<CreatePaymentIntentResponse>;
}

/** An intent for `amount` toward the whole balance; the server refuses (400, naming amount) one outside the minimum due to the balance. */
export async function createAccountPaymentIntent(amount: string): Promise<CreatePaymentIntentResponse> {
  return (await apiRequest('POST', '/api/customer/account-payment-intent', { amount })).json() as Promise<CreatePaymentIntentResponse>;
}

export async function confirmTestPayment(paymentIntentId: string, card: { cardNumber: string; expiry: string; cvc: string }) {
  const path = `/api/test-provider/payment-intents/${encodeURIComponent(paymentIntentId)}/confirm`;
  return (await apiRequest('POST', path, card)).json() as Promise<ConfirmTestPaymentResponse>;
}

/**
 * Asks the server to record the payment; it checks with the provider. Null when it could not
 * (the page then says the update may take a few minutes). The answer's summary (what it paid, the
 * balance after it, the gate access) comes only while the portal session is the payer's.
 */
export async function reportPayment(paymentIntentId: string): Promise<PaymentRecordedResponse | null> {
  const remembered = rememberedCheckout();
  const body = remembered ? { paymentIntentId, ...remembered } : { paymentIntentId };
  try {
    return (await (await apiRequest('POST', '/api/stripe/webhook/simulate', body)).json()) as PaymentRecordedResponse;
  } catch (error) {
    console.error('Recording the payment failed', error);
    return null;
  }
}

export function formatAmount(amount: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(amount));
}

/** Where a paid checkout lands (spec §8): the success page with the payment's id. */
export function paymentSuccessPath(paymentIntentId: string, redirectStatus = 'succeeded'): string {
  const query = new URLSearchParams({ payment_intent: paymentIntentId, redirect_status: redirectStatus });
  return `/payment-success?${query.toString()}`;
}
