import type { LeaseSignature, LeaseToSign, SignLeaseRequest } from '@storage/contracts/lease-signatures';
import type { RentalCheckout, RentalCheckoutRequest, RentalChoicesRequest, RentalOffer, RentalStatus } from '@storage/contracts/online-rentals';
import type { ConfirmTestPaymentRequest, ConfirmTestPaymentResponse } from '@storage/contracts/payments';
import { apiRequest } from '@storage/web-client/api';

// Finishing an online reservation online, with the token of the link that confirmed it.

export async function loadRentalOffer(request: RentalChoicesRequest): Promise<RentalOffer> {
  return (await apiRequest('POST', '/api/public/rentals/offer', request)).json() as Promise<RentalOffer>;
}

/** Signs the agreement the choices make and starts their payment. */
export async function startRentalCheckout(request: RentalCheckoutRequest): Promise<RentalCheckout> {
  return (await apiRequest('POST', '/api/public/rentals/checkout', request)).json() as Promise<RentalCheckout>;
}

export async function completeRental(token: string, paymentIntentId: string): Promise<RentalStatus> {
  return (await apiRequest('POST', '/api/public/rentals/complete', { token, paymentIntentId })).json() as Promise<RentalStatus>;
}

export async function rentalStatus(token: string): Promise<RentalStatus> {
  return (await apiRequest('POST', '/api/public/rentals/status', { token })).json() as Promise<RentalStatus>;
}

/** The built-in test provider's card, for a rental's payment (no portal session yet). */
export async function confirmRentalTestPayment(token: string, paymentIntentId: string, card: ConfirmTestPaymentRequest): Promise<ConfirmTestPaymentResponse> {
  return (await apiRequest('POST', '/api/public/rentals/test-payment', { token, paymentIntentId, card })).json() as Promise<ConfirmTestPaymentResponse>;
}

/** The agreement to read and sign: before paying, the one these choices make; once rented, the lease's. */
export async function rentalAgreement(request: RentalChoicesRequest): Promise<LeaseToSign> {
  return (await apiRequest('POST', '/api/public/rentals/agreement', request)).json() as Promise<LeaseToSign>;
}

export async function signRentalLease(token: string, request: SignLeaseRequest): Promise<LeaseSignature> {
  return (await apiRequest('POST', '/api/public/rentals/signature', { token, ...request })).json() as Promise<LeaseSignature>;
}
