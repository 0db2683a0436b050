import { type TotpEnabled, totpEnabledSchema } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { twoStepQueryKey } from './two-step-status';

/** POST /api/users/2fa/enable/ {code} → {recovery_codes}: ten single-use codes, shown this once. */
export const enableTwoStep = async (code: string): Promise<TotpEnabled> =>
  totpEnabledSchema.parse(await api.post('/users/2fa/enable/', { code }));

export function useEnableTwoStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableTwoStep,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoStepQueryKey }),
  });
}
