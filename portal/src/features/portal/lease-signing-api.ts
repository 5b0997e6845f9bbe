import type { LeaseSignature, LeaseToSign, SignLeaseRequest } from '@storage/contracts/lease-signatures';
import { apiRequest } from '@storage/web-client/api';

const leasePath = (leaseId: string) => `/api/customer/leases/${encodeURIComponent(leaseId)}`;

/** The renter's lease agreement as it would be signed now, its hash, and the newest signature. */
export async function loadLeaseToSign(leaseId: string): Promise<LeaseToSign> {
  return (await apiRequest('GET', `${leasePath(leaseId)}/signature`)).json();
}

export async function signLeaseOnline(leaseId: string, request: SignLeaseRequest): Promise<LeaseSignature> {
  return (await apiRequest('POST', `${leasePath(leaseId)}/signature`, request)).json();
}

export const signedLeasePdfPath = (leaseId: string) => `${leasePath(leaseId)}/signed.pdf`;
