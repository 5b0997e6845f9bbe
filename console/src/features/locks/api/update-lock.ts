import type { Lock, UpdateLockRequest } from '@storage/contracts/locks';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type LocksPage, locksQueryKey } from './get-locks.ts';

export type LockUpdate = { lockId: string; changes: UpdateLockRequest };

export async function updateLock({ lockId, changes }: LockUpdate): Promise<Lock> {
  const response = await apiRequest('PATCH', `/api/locks/${encodeURIComponent(lockId)}`, changes);
  return response.json();
}

/**
 * The answer is the lock as it now is: it replaces the lock in every loaded list, so the card is
 * right even when the read model is late; lists are refetched when next shown.
 */
export function useUpdateLock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLock,
    onSuccess: (updated) => {
      queryClient.setQueriesData<LocksPage>(
        { queryKey: [...locksQueryKey, 'list'] },
        (page) => page && { ...page, locks: page.locks.map((lock) => (lock.id === updated.id ? updated : lock)) },
      );
      return queryClient.invalidateQueries({ queryKey: locksQueryKey, refetchType: 'none' });
    },
  });
}
