import { type TotpStatus, totpStatusSchema } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

export const twoStepQueryKey = ['users', '2fa'] as const;

/** GET /api/users/2fa/ → {enabled, recovery_codes_left}. */
export const twoStepStatus = async (): Promise<TotpStatus> =>
  totpStatusSchema.parse(await api.get('/users/2fa/'));

export const useTwoStepStatus = () => useQuery({ queryKey: twoStepQueryKey, queryFn: twoStepStatus });
