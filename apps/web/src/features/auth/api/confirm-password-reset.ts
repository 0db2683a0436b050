import { useMutation } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/api-client';

export interface ConfirmResetInput {
  email: string;
  verification_code: string;
  new_password: string;
}

/** POST /api/users/password/reset/confirm/ → sets the password, uses the code and ends every session. */
export const confirmPasswordReset = (input: ConfirmResetInput): Promise<{ message?: string } | null> =>
  publicApi.post('/users/password/reset/confirm/', input);

export const useConfirmPasswordReset = () => useMutation({ mutationFn: confirmPasswordReset });
