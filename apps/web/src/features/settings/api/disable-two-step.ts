import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { twoStepQueryKey } from './two-step-status';

/** POST /api/users/2fa/disable/ {password, code}: two-step sign-in off. */
export const disableTwoStep = (body: { password: string; code: string }): Promise<unknown> =>
  api.post('/users/2fa/disable/', body);

export function useDisableTwoStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoStep,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoStepQueryKey }),
  });
}
