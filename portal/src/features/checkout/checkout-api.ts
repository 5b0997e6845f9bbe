import type { ConfirmTestPaymentResponse, CreatePaymentIntentResponse, PaymentConfig } from '@storage/contracts/payments';
import type { PortalInvoice } from '@storage/contracts/portal';
import { apiRequest } from '@storage/web-client/api';

// What the checkout keeps in session storage while a payment is under way (spec: Checkout), so
// the success page can report the payment for the right invoice and customer.
const storageKeys = { invoiceId: 'currentInvoiceId', customerId: 'currentCustomerId', customerEmail: 'currentCustomerEmail' };

export interface CheckoutSession {
  invoiceId: string;
  customerId: string;
  customerEmail: string;
}

export function rememberCheckout(session: CheckoutSession): void {
  for (const [field, key] of Object.entries(storageKeys)) sessionStorage.setItem(key, session[field as keyof CheckoutSession]);
}

export function rememberedCheckout(): CheckoutSession | null {
  const invoiceId = sessionStorage.getItem(storageKeys.invoiceId);
  const customerId = sessionStorage.getItem(storageKeys.customerId);
  const customerEmail = sessionStorage.getItem(storageKeys.customerEmail);
  return invoiceId && customerId && customerEmail ? { invoiceId, customerId, customerEmail } : null;
}

export function forgetCheckout(): void {
  for (const key of Object.values(storageKeys)) sessionStorage.removeItem(key);
}

export async function loadPaymentConfig(): Promise<PaymentConfig> {
  return (await apiRequest('GET', '/api/payments/config')).json() as Promise<PaymentConfig>;
}

export async function loadCustomerInvoices(email: string | null): Promise<PortalInvoice[]> {
  const query = email ? `?email=${encodeURIComponent(email)}` : '';
  return (await apiRequest('GET', `/api/customer/invoices${query}`)).json() as Promise<PortalInvoice[]>;
}

export async function createPaymentIntent(invoice: PortalInvoice, customerEmail: string | null): Promise<CreatePaymentIntentResponse> {
  const body = { amount: invoice.amount, invoiceId: invoice.id, ...(customerEmail ? { customerEmail } : {}) };
  return (await apiRequest('POST', '/api/create-payment-intent', body)).json() as Promise<CreatePaymentIntentResponse>;
}

export async function confirmTestPayment(paymentIntentId: string, card: { cardNumber: string; expiry: string; cvc: string }) {
  const path = `/api/test-provider/payment-intents/${encodeURIComponent(paymentIntentId)}/confirm`;
  return (await apiRequest('POST', path, card)).json() as Promise<ConfirmTestPaymentResponse>;
}

/** Asks the server to record the payment; it checks with the provider. Only the ok status counts. */
export async function reportPayment(paymentIntentId: string, fallbackEmail: string | null): Promise<boolean> {
  const remembered = rememberedCheckout();
  const body = remembered ? { paymentIntentId, ...remembered } : { paymentIntentId, ...(fallbackEmail ? { fallbackEmail } : {}) };
  try {
    await apiRequest('POST', '/api/stripe/webhook/simulate', body);
    return true;
  } catch (error) {
    console.error('Recording the payment failed', error);
    return false;
  }
}

export function formatAmount(amount: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(amount));
}

/** Where a paid checkout lands (spec §8): the success page with the payment's id. */
export function paymentSuccessPath(email: string, paymentIntentId: string, redirectStatus = 'succeeded'): string {
  const query = new URLSearchParams({ email, payment_intent: paymentIntentId, redirect_status: redirectStatus });
  return `/payment-success?${query.toString()}`;
}
