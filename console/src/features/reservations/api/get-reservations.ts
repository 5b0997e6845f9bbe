import type { ListTotal } from '@storage/contracts/page-info';
import type { WaitlistEntry } from '@storage/contracts/public';
import type { Reservation, ReservationStatus, reservationSorting, waitlistSorting } from '@storage/contracts/reservations';
import type { Sort } from '@storage/contracts/sorting';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchListPage, type PageAt } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';

export const RESERVATIONS_PAGE_SIZE = 20;

export const reservationsQueryKey = ['reservations'] as const;

export type ReservationsFilter = { facilityId: string | null; status: ReservationStatus | null; sort: Sort<keyof typeof reservationSorting.columns> };
export type WaitlistFilter = { facilityId: string | null; sort: Sort<keyof typeof waitlistSorting.columns> };

function getPage<Row>(path: string, values: Record<string, string | number | null>, page: PageAt): Promise<{ rows: Row[]; total: ListTotal }> {
  return fetchListPage<Row>(path, queryParams({ ...values, pageSize: RESERVATIONS_PAGE_SIZE }), page);
}

export const reservationsQueryOptions = ({ facilityId, status, sort }: ReservationsFilter, page: PageAt) =>
  queryOptions({
    queryKey: [...reservationsQueryKey, 'list', facilityId, status, sort, page],
    queryFn: () => getPage<Reservation>('/api/reservations', { facilityId, status, ...sort }, page),
  });

export const waitlistQueryOptions = ({ facilityId, sort }: WaitlistFilter, page: PageAt) =>
  queryOptions({
    queryKey: [...reservationsQueryKey, 'waitlist', facilityId, sort, page],
    queryFn: () => getPage<WaitlistEntry>('/api/waitlist', { facilityId, ...sort }, page),
  });

export const useReservations = (filter: ReservationsFilter, page: PageAt) =>
  useQuery({ ...reservationsQueryOptions(filter, page), placeholderData: keepPreviousData });
export const useWaitlist = (filter: WaitlistFilter, page: PageAt) => useQuery({ ...waitlistQueryOptions(filter, page), placeholderData: keepPreviousData });
