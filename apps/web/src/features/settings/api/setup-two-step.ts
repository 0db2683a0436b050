import { type TotpSetup, totpSetupSchema } from '@parley/protocol';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

/** POST /api/users/2fa/setup/ → {secret, otpauth_url}: a new secret, shown this once, pending until enabled. */
export const setupTwoStep = async (): Promise<TotpSetup> =>
  totpSetupSchema.parse(await api.post('/users/2fa/setup/'));

export const useSetupTwoStep = () => useMutation({ mutationFn: setupTwoStep });
