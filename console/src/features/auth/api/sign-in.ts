import type { AuthUser, LoginRequest } from '@storage/contracts/auth';
import { apiRequest } from '@storage/web-client/api';
import { useMutation } from '@tanstack/react-query';

export async function signIn(credentials: LoginRequest): Promise<AuthUser> {
  const response = await apiRequest('POST', '/api/auth/login', credentials);
  return response.json();
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
