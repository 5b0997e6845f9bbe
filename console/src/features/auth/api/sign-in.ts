import type { AuthUser, LoginAnswer, LoginRequest, TwoFactorSignInRequest } from '@storage/contracts/auth';
import { apiRequest } from '@storage/web-client/api';
import { useMutation } from '@tanstack/react-query';

/** The password: the signed-in member, or `{ twoFactorRequired: true }` when their code comes next. */
export async function signIn(credentials: LoginRequest): Promise<LoginAnswer> {
  const response = await apiRequest('POST', '/api/auth/login', credentials);
  return response.json();
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}

/** The second step: a code from the authenticator app, or a recovery code. */
export async function signInWithCode(request: TwoFactorSignInRequest): Promise<AuthUser> {
  const response = await apiRequest('POST', '/api/auth/two-factor', request);
  return response.json();
}

export function useSignInWithCode() {
  return useMutation({ mutationFn: signInWithCode });
}
