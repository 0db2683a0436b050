import type { AuthResponse } from '@parley/protocol';
import { useMutation } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/api-client';

export interface VerifySignupInput {
  email: string;
  verification_code: string;
}

/** POST /api/users/email/verify/signup/ → token plus the flat user fields: the account is active and signed in. */
export const verifySignup = (input: VerifySignupInput): Promise<AuthResponse> =>
  publicApi.post<AuthResponse>('/users/email/verify/signup/', input);

export const useVerifySignup = () => useMutation({ mutationFn: verifySignup });
