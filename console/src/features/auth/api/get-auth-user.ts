import type { AuthUser } from '@storage/contracts/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api.ts';

export async function getAuthUser(): Promise<AuthUser> {
  const response = await apiRequest('GET', '/api/auth/user');
  return response.json();
}

export const authUserQueryOptions = () => queryOptions({ queryKey: ['auth-user'], queryFn: getAuthUser });

export function useAuthUser() {
  return useQuery(authUserQueryOptions());
}
