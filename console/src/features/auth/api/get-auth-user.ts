import type { AuthUser } from '@storage/contracts/auth';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useQuery } from '@tanstack/react-query';

export async function getAuthUser(): Promise<AuthUser> {
  const response = await apiRequest('GET', '/api/auth/user');
  return response.json();
}

export const authUserQueryOptions = () => queryOptions({ queryKey: ['auth-user'], queryFn: getAuthUser });

export function useAuthUser() {
  return useQuery(authUserQueryOptions());
}
