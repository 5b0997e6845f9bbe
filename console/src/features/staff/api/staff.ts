import type { StaffRole } from '@storage/contracts/enums';
import type { ListTotal } from '@storage/contracts/page-info';
import type { Sort } from '@storage/contracts/sorting';
import type { AddStaffRequest, StaffMember, StaffStatus, staffSorting } from '@storage/contracts/staff';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchListPage, type PageAt } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';

export const STAFF_PAGE_SIZE = 20;

export const staffQueryKey = ['staff'] as const;

export type StaffFilter = { status: StaffStatus | null; sort: Sort<keyof typeof staffSorting.columns> };

export async function getStaff({ status, sort }: StaffFilter, page: PageAt): Promise<{ members: StaffMember[]; total: ListTotal }> {
  const { rows: members, total } = await fetchListPage<StaffMember>('/api/staff', queryParams({ status, ...sort, pageSize: STAFF_PAGE_SIZE }), page);
  return { members, total };
}

export function useStaff(filter: StaffFilter, page: PageAt) {
  return useQuery({ queryKey: [...staffQueryKey, filter, page], queryFn: () => getStaff(filter, page), placeholderData: keepPreviousData });
}

/** A write on one member: the list is read again once it is done. */
function useStaffChange<Variables>(change: (variables: Variables) => Promise<StaffMember>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffQueryKey }),
  });
}

const answer = async (response: Response): Promise<StaffMember> => response.json();

export function useAddStaff() {
  return useStaffChange((request: AddStaffRequest) => apiRequest('POST', '/api/staff', request).then(answer));
}

export function useChangeStaffRole() {
  return useStaffChange(({ staffId, role }: { staffId: string; role: StaffRole }) => apiRequest('PUT', `/api/staff/${staffId}/role`, { role }).then(answer));
}

export function useSetStaffActive() {
  return useStaffChange(({ staffId, active }: { staffId: string; active: boolean }) =>
    apiRequest('POST', `/api/staff/${staffId}/${active ? 'reactivate' : 'deactivate'}`, {}).then(answer),
  );
}

/** For a lost phone: the member's two-factor sign-in is turned off (they may set it up again). */
export function useResetTwoFactor() {
  return useStaffChange((staffId: string) => apiRequest('POST', `/api/staff/${staffId}/two-factor/reset`, {}).then(answer));
}
