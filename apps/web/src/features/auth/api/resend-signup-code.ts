import type { CodeResent } from '@parley/protocol';
import { useMutation } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/api-client';

/** POST /api/users/email/resend/signup/ → {message, mail_sent?}; mails a fresh sign-up code. */
export const resendSignupCode = (email: string): Promise<CodeResent | null> =>
  publicApi.post('/users/email/resend/signup/', { email });

export const useResendSignupCode = () => useMutation({ mutationFn: resendSignupCode });
