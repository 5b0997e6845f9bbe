import { useQuery } from '@tanstack/react-query';
import { authUserQueryOptions } from '../features/auth/api/get-auth-user.ts';

/** False for read-only accounts (auditors): the console then hides every action that changes something. */
export function useCanChange(): boolean {
  const role = useQuery(authUserQueryOptions()).data?.role;
  return role !== undefined && role !== 'auditor';
}

/** Owners and auditors read the event history (History tabs, the Audit Log). */
export function useCanReadHistory(): boolean {
  const role = useQuery(authUserQueryOptions()).data?.role;
  return role === 'owner' || role === 'auditor';
}

/** Owners and managers give money back: credits, write-offs, voids. */
export function useCanGiveMoneyBack(): boolean {
  const role = useQuery(authUserQueryOptions()).data?.role;
  return role === 'owner' || role === 'manager';
}

/** Owners and managers set rents: a lease's rent change, a facility's rent increase. */
export function useCanChangeRent(): boolean {
  const role = useQuery(authUserQueryOptions()).data?.role;
  return role === 'owner' || role === 'manager';
}

/** Owners, managers and clerks take money at the desk (as the desk payment route allows). */
export function useCanTakePayments(): boolean {
  const role = useQuery(authUserQueryOptions()).data?.role;
  return role === 'owner' || role === 'manager' || role === 'clerk';
}
