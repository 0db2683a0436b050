import type { AuthResponse, RegisterPayload, VerificationRequired } from '@parley/protocol';
import { useMutation } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/api-client';
import { fieldErrors, isApiError } from '../../../lib/http/api-error';
import { authStore, toSignedIn } from '../../../lib/session/auth-store';
import { registrationFailureMessage } from '../lib/auth-errors';

export type RegisterResponse = VerificationRequired | AuthResponse;

export const needsVerification = (answer: RegisterResponse): answer is VerificationRequired =>
  'requires_verification' in answer && answer.requires_verification === true;

/** POST /api/users/register/ → {requires_verification, email, message}; a code is mailed. */
export const register = (payload: RegisterPayload): Promise<RegisterResponse> =>
  publicApi.post<RegisterResponse>('/users/register/', payload);

/** SPEC §4's register transitions; a sign-up that needs verification signs nobody in. */
export const useRegister = () =>
  useMutation({
    mutationFn: register,
    onMutate: () => authStore.getState().registerStart(),
    onSuccess: (answer) => {
      if (needsVerification(answer)) authStore.getState().registerSuccess();
      else authStore.getState().loginSuccess(toSignedIn(answer, true));
    },
    // A refusal that names its fields is shown under them; the banner is for everything else.
    onError: (error) =>
      authStore.getState().registerFailure(namesFields(error) ? '' : registrationFailureMessage(error)),
  });

const FORM_FIELDS = ['first_name', 'last_name', 'username', 'email', 'password', 'invite'];
const namesFields = (error: unknown) =>
  isApiError(error) && Object.keys(fieldErrors(error.body)).some((f) => FORM_FIELDS.includes(f));
