import type { AuthUser } from '@parley/protocol';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

export interface VerifyEmailChangeResponse {
  message?: string;
  user?: Partial<AuthUser>;
}

/** POST /api/users/email/verify/code/ → {message, user}; the email changes only now. */
export const verifyEmailChange = (verificationCode: string): Promise<VerifyEmailChangeResponse> =>
  api.post<VerifyEmailChangeResponse>('/users/email/verify/code/', { verification_code: verificationCode });

export const useVerifyEmailChange = () => useMutation({ mutationFn: verifyEmailChange });
