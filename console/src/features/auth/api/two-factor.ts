import type {
  ConfirmTwoFactorRequest,
  RecoveryCodes,
  RegenerateRecoveryCodesRequest,
  TurnOffTwoFactorRequest,
  TwoFactorEnrolment,
  TwoFactorStatus,
} from '@storage/contracts/auth';
import type { SecuritySettings } from '@storage/contracts/settings';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authUserQueryOptions } from './get-auth-user.ts';

// The signed-in member's own two-factor sign-in, and the owners' switch that requires it of all staff.

const statusQueryKey = ['two-factor-status'] as const;
const securitySettingsQueryKey = ['security-settings'] as const;
/** The staff list shows who has it on. */
const staffQueryKey = ['staff'] as const;

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: statusQueryKey,
    queryFn: async (): Promise<TwoFactorStatus> => (await apiRequest('GET', '/api/auth/two-factor/status')).json(),
  });
}

/** After it is turned on or off: the status, the signed-in member (whether they must still set it up) and the staff list. */
export function useAfterTwoFactorChange() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: statusQueryKey }),
      queryClient.invalidateQueries({ queryKey: authUserQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: staffQueryKey }),
    ]);
}

export function useStartTwoFactorEnrolment() {
  return useMutation({
    mutationFn: async (): Promise<TwoFactorEnrolment> => (await apiRequest('POST', '/api/auth/two-factor/enrolment', {})).json(),
  });
}

/** Turns it on; the recovery codes come back this once. The caller refreshes the status once they are put away (`useAfterTwoFactorChange`). */
export function useConfirmTwoFactor() {
  return useMutation({
    mutationFn: async (request: ConfirmTwoFactorRequest): Promise<RecoveryCodes> =>
      (await apiRequest('POST', '/api/auth/two-factor/enrolment/confirm', request)).json(),
  });
}

export function useTurnOffTwoFactor() {
  const afterChange = useAfterTwoFactorChange();
  return useMutation({
    mutationFn: async (request: TurnOffTwoFactorRequest) => {
      await apiRequest('POST', '/api/auth/two-factor/turn-off', request);
    },
    onSuccess: afterChange,
  });
}

export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: RegenerateRecoveryCodesRequest): Promise<RecoveryCodes> =>
      (await apiRequest('POST', '/api/auth/two-factor/recovery-codes', request)).json(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: statusQueryKey }),
  });
}

export function useSecuritySettings() {
  return useQuery({
    queryKey: securitySettingsQueryKey,
    queryFn: async (): Promise<SecuritySettings> => (await apiRequest('GET', '/api/settings/security')).json(),
  });
}

export function useSaveSecuritySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settings: SecuritySettings): Promise<SecuritySettings> => (await apiRequest('PUT', '/api/settings/security', settings)).json(),
    onSuccess: (saved) => {
      queryClient.setQueryData(securitySettingsQueryKey, saved);
      return queryClient.invalidateQueries({ queryKey: statusQueryKey });
    },
  });
}
