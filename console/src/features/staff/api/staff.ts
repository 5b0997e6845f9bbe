import type { StaffRole } from '@storage/contracts/enums';
import type { AddStaffRequest, StaffMember } from '@storage/contracts/staff';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export const staffQueryKey = ['staff'] as const;

export async function getStaff(): Promise<StaffMember[]> {
  const response = await apiRequest('GET', '/api/staff');
  return response.json();
}

export function useStaff() {
  return useQuery({ queryKey: staffQueryKey, queryFn: getStaff });
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
