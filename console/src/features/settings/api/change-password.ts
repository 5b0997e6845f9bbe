import type { ChangePasswordRequest } from '@storage/contracts/settings';
import { apiRequest } from '@storage/web-client/api';
import { useMutation } from '@tanstack/react-query';

export async function changePassword(request: ChangePasswordRequest): Promise<void> {
  await apiRequest('PUT', '/api/auth/password', request);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
