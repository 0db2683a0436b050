import { useMutation } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/api-client';

/** POST /api/users/email/resend/signup/ → {message}; mails a fresh sign-up code. */
export const resendSignupCode = (email: string): Promise<{ message?: string } | null> =>
  publicApi.post('/users/email/resend/signup/', { email });

export const useResendSignupCode = () => useMutation({ mutationFn: resendSignupCode });
