import type { CardSetup, PaymentProfile } from '@storage/contracts/autopay';
import type { PaymentConfig } from '@storage/contracts/payments';
import { apiRequest } from '@storage/web-client/api';

// The renter's saved cards and autopay; every call answers for the portal session's own customer.

/** Which card form to show (Stripe's publishable key, or the test provider). */
export async function loadPaymentConfig(): Promise<PaymentConfig> {
  return (await apiRequest('GET', '/api/payments/config')).json() as Promise<PaymentConfig>;
}

export async function loadPaymentProfile(): Promise<PaymentProfile> {
  return (await apiRequest('GET', '/api/customer/payment-methods')).json() as Promise<PaymentProfile>;
}

export async function startCardSetup(): Promise<CardSetup> {
  return (await apiRequest('POST', '/api/customer/payment-methods/setup', {})).json() as Promise<CardSetup>;
}

/** The test provider's card fields, or the SetupIntent Stripe Elements confirmed. */
export async function saveCard(
  card: { cardNumber: string; expiry: string; cvc: string } | { setupIntentId: string },
  autopay: boolean,
): Promise<PaymentProfile> {
  return (await apiRequest('POST', '/api/customer/payment-methods', { ...card, autopay })).json() as Promise<PaymentProfile>;
}

export async function removeCard(id: string): Promise<PaymentProfile> {
  return (await apiRequest('DELETE', `/api/customer/payment-methods/${encodeURIComponent(id)}`)).json() as Promise<PaymentProfile>;
}

export async function setAutopay(enabled: boolean): Promise<PaymentProfile> {
  return (await apiRequest('PUT', '/api/customer/autopay', { enabled })).json() as Promise<PaymentProfile>;
}
