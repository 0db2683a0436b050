import { useMutation } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/api-client';

export interface VerifyResetInput {
  email: string;
  verification_code: string;
}

/** POST /api/users/password/reset/verify/ → checks the code without using it up. */
export const verifyPasswordReset = (input: VerifyResetInput): Promise<{ message?: string } | null> =>
  publicApi.post('/users/password/reset/verify/', input);

export const useVerifyPasswordReset = () => useMutation({ mutationFn: verifyPasswordReset });
