import type { AuthUser, LoginRequest } from '@storage/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api.ts';

export async function signIn(credentials: LoginRequest): Promise<AuthUser> {
  const response = await apiRequest('POST', '/api/auth/login', credentials);
  return response.json();
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
