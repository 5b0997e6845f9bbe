import type { CreateLockRequest, Lock } from '@storage/contracts/locks';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { locksQueryKey } from './get-locks.ts';

export async function createLock(request: CreateLockRequest): Promise<Lock> {
  const response = await apiRequest('POST', '/api/locks', request);
  return response.json();
}

export function useCreateLock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLock,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: locksQueryKey }),
  });
}
