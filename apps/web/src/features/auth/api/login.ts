import type { AuthResponse, LoginPayload } from '@parley/protocol';
import { useMutation } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/api-client';
import { authStore, toSignedIn } from '../../../lib/session/auth-store';
import { loginFailureMessage, totpRequired } from '../lib/auth-errors';

/**
 * POST /api/users/login/ → token plus the flat user fields. An unverified account answers 403; one with two-step
 * sign-in answers 401 `{detail: {requires_totp}}` until `totp_code` comes with the password.
 */
export const login = (payload: LoginPayload): Promise<AuthResponse> =>
  publicApi.post<AuthResponse>('/users/login/', payload);

/**
 * Drives the auth store through SPEC §4's login transitions. They sit on the mutation itself, not on one
 * `mutate` call, so they run even if the form has gone away meanwhile (loading never sticks).
 */
export const useLogin = () =>
  useMutation({
    mutationFn: login,
    onMutate: () => authStore.getState().loginStart(),
    onSuccess: (answer, payload) =>
      authStore.getState().loginSuccess(toSignedIn(answer, payload.remember_me ?? true)),
    // Asked for the second step: no banner, the form shows the code field instead.
    onError: (error) =>
      authStore.getState().loginFailure(totpRequired(error) ? '' : loginFailureMessage(error)),
  });
