import type { Ledger } from '@storage/contracts/ledger';
import type { PortalPayment } from '@storage/contracts/payments';
import type {
  PortalAccessLog,
  PortalAccount,
  PortalCodeSent,
  PortalContact,
  PortalInvoice,
  PortalProfile,
  PortalSession,
  PortalUnit,
} from '@storage/contracts/portal';
import { apiRequest } from '@storage/web-client/api';

/** Everything the unlocked portal shows, read for the portal session's customer. */
export interface PortalData {
  profile: PortalProfile;
  account: PortalAccount;
  invoices: PortalInvoice[];
  /** The payments made on the account, newest first. */
  payments: PortalPayment[];
  units: PortalUnit[];
  accessLogs: PortalAccessLog[];
  /** Every charge, payment and credit with the running balance, as of today. */
  ledger: Ledger;
}

async function read<T>(path: string): Promise<T> {
  return (await apiRequest('GET', path)).json() as Promise<T>;
}

/** The gate's answer: signed in, or (once the email's gate has seen failures) a code mailed to the renter. */
export type GateAnswer = { signedIn: true } | PortalCodeSent;

export async function verifyCustomer(email: string, phoneLast4: string): Promise<GateAnswer> {
  const response = await apiRequest('POST', '/api/customer/verify', { email, phoneLast4 });
  return response.status === 202 ? ((await response.json()) as PortalCodeSent) : { signedIn: true };
}

/** Opens the portal session with the code the gate mailed. */
export async function verifyCustomerCode(email: string, code: string): Promise<void> {
  await apiRequest('POST', '/api/customer/verify-code', { email, code });
}

export async function signOutCustomer(): Promise<void> {
  await apiRequest('POST', '/api/customer/sign-out', {});
}

/** Whether this browser has a portal session open: one request, answered 200 either way. */
export function loadPortalSession(): Promise<PortalSession> {
  return read<PortalSession>('/api/customer/session');
}

/** The portal's data, or null without a portal session (asked first, so no request answers 401). */
export async function loadPortalDataIfSignedIn(): Promise<PortalData | null> {
  return (await loadPortalSession()).signedIn ? loadPortalData() : null;
}

export async function loadPortalData(): Promise<PortalData> {
  const [profile, account, invoices, payments, units, accessLogs, ledger] = await Promise.all([
    read<PortalProfile>('/api/customer/profile'),
    read<PortalAccount>('/api/customer/account'),
    read<PortalInvoice[]>('/api/customer/invoices'),
    read<PortalPayment[]>('/api/customer/payments'),
    read<PortalUnit[]>('/api/customer/units'),
    read<PortalAccessLog[]>('/api/customer/access-logs'),
    read<Ledger>('/api/customer/ledger'),
  ]);
  return { profile, account, invoices, payments, units, accessLogs, ledger };
}

/** The renter's balance, minimum due and credit. */
export function loadAccount(): Promise<PortalAccount> {
  return read<PortalAccount>('/api/customer/account');
}

export function loadContact(): Promise<PortalContact> {
  return read<PortalContact>('/api/customer/contact');
}

/** The renter's statement as PDF, to download. */
export const STATEMENT_PDF_URL = '/api/customer/statement.pdf';
