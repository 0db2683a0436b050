import { useMutation } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/api-client';

/** POST /api/users/password/reset/request/ → the same answer whether or not the address is known. */
export const requestPasswordReset = (email: string): Promise<{ message?: string } | null> =>
  publicApi.post('/users/password/reset/request/', { email });

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
