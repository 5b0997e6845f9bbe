import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import type { WaitlistEntry } from '@storage/contracts/public';
import type { Reservation, ReservationStatus, reservationSorting, waitlistSorting } from '@storage/contracts/reservations';
import type { Sort } from '@storage/contracts/sorting';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryParams } from '../../../lib/list-state.ts';

export const RESERVATIONS_PAGE_SIZE = 20;

export const reservationsQueryKey = ['reservations'] as const;

export type ReservationsFilter = { facilityId: string | null; status: ReservationStatus | null; sort: Sort<keyof typeof reservationSorting.columns> };
export type WaitlistFilter = { facilityId: string | null; sort: Sort<keyof typeof waitlistSorting.columns> };

async function getPage<Row>(path: string, values: Record<string, string | number | null>): Promise<{ rows: Row[]; total: number }> {
  const response = await apiRequest('GET', `${path}?${queryParams({ ...values, pageSize: RESERVATIONS_PAGE_SIZE })}`);
  const rows: Row[] = await response.json();
  return { rows, total: Number(response.headers.get(TOTAL_COUNT_HEADER) ?? rows.length) };
}

export const reservationsQueryOptions = ({ facilityId, status, sort }: ReservationsFilter, page: number) =>
  queryOptions({
    queryKey: [...reservationsQueryKey, 'list', facilityId, status, sort, page],
    queryFn: () => getPage<Reservation>('/api/reservations', { facilityId, status, ...sort, page }),
  });

export const waitlistQueryOptions = ({ facilityId, sort }: WaitlistFilter, page: number) =>
  queryOptions({
    queryKey: [...reservationsQueryKey, 'waitlist', facilityId, sort, page],
    queryFn: () => getPage<WaitlistEntry>('/api/waitlist', { facilityId, ...sort, page }),
  });

export const useReservations = (filter: ReservationsFilter, page: number) =>
  useQuery({ ...reservationsQueryOptions(filter, page), placeholderData: keepPreviousData });
export const useWaitlist = (filter: WaitlistFilter, page: number) => useQuery({ ...waitlistQueryOptions(filter, page), placeholderData: keepPreviousData });
