import { type AuthResponse, SSO_EXCHANGE_PATH, type SsoExchangePayload } from '@parley/protocol';
import { useMutation } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/api-client';
import { authStore, toSignedIn } from '../../../lib/session/auth-store';
import { loginFailureMessage, totpRequired } from '../lib/auth-errors';

/**
 * POST /api/auth/oidc/exchange/ → token plus the flat user fields, for the one-time code single sign-on left in
 * the address. An account with two-step sign-in answers 401 `{detail: {requires_totp}}` until `totp_code` comes too.
 */
export const exchangeSso = (payload: SsoExchangePayload): Promise<AuthResponse> =>
  publicApi.post<AuthResponse>(SSO_EXCHANGE_PATH, payload);

/** Signs in as a password login does: a session signed in by the provider is remembered on this device. */
export const useSsoExchange = () =>
  useMutation({
    mutationFn: exchangeSso,
    onMutate: () => authStore.getState().loginStart(),
    onSuccess: (answer) => authStore.getState().loginSuccess(toSignedIn(answer, true)),
    // Asked for the second step: no banner, the screen shows the code field instead.
    onError: (error) =>
      authStore.getState().loginFailure(totpRequired(error) ? '' : loginFailureMessage(error)),
  });
