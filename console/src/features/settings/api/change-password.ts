import type { ChangePasswordRequest } from '@storage/contracts/settings';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api.ts';

export async function changePassword(request: ChangePasswordRequest): Promise<void> {
  await apiRequest('PUT', '/api/auth/password', request);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
