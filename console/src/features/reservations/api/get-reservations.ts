import type { WaitlistEntry } from '@storage/contracts/public';
import type { Reservation } from '@storage/contracts/reservations';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useQuery } from '@tanstack/react-query';

export const reservationsQueryKey = ['reservations'] as const;

function scoped(path: string, facilityId: string | null) {
  return facilityId ? `${path}?${new URLSearchParams({ facilityId })}` : path;
}

export const openReservationsQueryOptions = (facilityId: string | null) =>
  queryOptions({
    queryKey: [...reservationsQueryKey, 'open', facilityId],
    queryFn: async (): Promise<Reservation[]> => (await apiRequest('GET', scoped('/api/reservations', facilityId))).json(),
  });

export const waitlistQueryOptions = (facilityId: string | null) =>
  queryOptions({
    queryKey: [...reservationsQueryKey, 'waitlist', facilityId],
    queryFn: async (): Promise<WaitlistEntry[]> => (await apiRequest('GET', scoped('/api/waitlist', facilityId))).json(),
  });

export const useOpenReservations = (facilityId: string | null) => useQuery(openReservationsQueryOptions(facilityId));
export const useWaitlist = (facilityId: string | null) => useQuery(waitlistQueryOptions(facilityId));
