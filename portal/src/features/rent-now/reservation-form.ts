import type { SubmitReservationRequest } from '@storage/contracts/public';

export type ContactDetails = Record<keyof SubmitReservationRequest['customerData'], string>;

export const emptyContactDetails: ContactDetails = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  address: '',
  emergencyContact: '',
  emergencyPhone: '',
  moveInDate: '',
  specialRequests: '',
};

export const contactLabels: Record<keyof ContactDetails, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email',
  phone: 'Phone',
  address: 'Address',
  emergencyContact: 'Emergency Contact',
  emergencyPhone: 'Emergency Phone',
  moveInDate: 'Move-in Date',
  specialRequests: 'Special Requests',
};

const requiredFields = ['firstName', 'lastName', 'email', 'phone', 'moveInDate'] as const;

/** Today in the renter's own time zone, as YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  const offsetMs = now.getTimezoneOffset() * 60_000;
  return new Date(now.getTime() - offsetMs).toISOString().slice(0, 10);
}

export type SubmitProblem = { title: string; message: string };

/** The checks made at submit (the review step is reachable without them). */
export function submitProblem(details: ContactDetails, unitChosen: boolean, today = localToday()): SubmitProblem | null {
  const missing: string[] = [];
  if (!unitChosen) missing.push('Unit');
  for (const field of requiredFields) if (!details[field].trim()) missing.push(contactLabels[field]);
  if (missing.length > 0) return { title: 'Missing Information', message: `Please fill in: ${missing.join(', ')}` };
  if (details.moveInDate < today) return { title: 'Invalid Move-in Date', message: 'The move-in date cannot be earlier than today.' };
  return null;
}
