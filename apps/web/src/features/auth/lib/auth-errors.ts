import { MSG } from '@parley/protocol';
import { firstFieldError, isApiError } from '../../../lib/http/api-error';
import { t } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import './auth-texts';

// SPEC §8: which text the auth banner shows for a failed login or sign-up, in the reader's language (these
// constants are the English words, as the catalog holds them; the server's own texts by their ids).
export const LOGIN_FAILED = 'Login failed. Please try again.';
export const REGISTRATION_FAILED = 'Registration failed. Please try again.';
export const NO_RESPONSE = 'No response from server. Please check your connection.';
export const UNEXPECTED = 'An unexpected error occurred.';

type Body = Record<string, unknown>;
const asBody = (value: unknown): Body | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : null;
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);
const firstNonFieldError = (body: Body): string | null =>
  Array.isArray(body.non_field_errors) ? text(body.non_field_errors[0]) : null;

/** The verification hand-off a login refusal may carry: `detail: {requires_verification, email, message}`. */
export function verificationRequired(
  error: unknown,
): { email: string | null; message: string | null } | null {
  if (!isApiError(error)) return null;
  const detail = asBody(asBody(error.body)?.detail);
  if (!detail?.requires_verification) return null;
  return { email: text(detail.email), message: text(detail.message) };
}

/** A login whose password was right but whose account asks for its second step: 401 `detail: {requires_totp}`. */
export function totpRequired(error: unknown): boolean {
  if (!isApiError(error) || error.status !== 401) return false;
  return asBody(asBody(error.body)?.detail)?.requires_totp === true;
}

export function loginFailureMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.noResponse) return t('auth.error.noResponse');
    const verification = verificationRequired(error);
    if (verification) {
      const message = localText(verification.message ?? MSG.verifyBeforeLogin);
      return verification.email
        ? t('auth.error.verifyWithEmail', { message, email: verification.email })
        : message;
    }
    const body = asBody(error.body);
    const chosen = body
      ? (text(body.detail) ??
        text(body.message) ??
        firstNonFieldError(body) ??
        text(body.error) ??
        firstFieldError(body))
      : text(error.body);
    return chosen ? localText(chosen) : t('auth.error.server', { status: error.status });
  }
  if (error instanceof Error) return error.message || t('auth.error.unexpected');
  return t('auth.error.loginFailed');
}

export function registrationFailureMessage(error: unknown): string {
  const body = isApiError(error) ? asBody(error.body) : null;
  const chosen = body && (text(body.detail) ?? text(body.message) ?? firstNonFieldError(body));
  return chosen ? localText(chosen) : t('auth.error.registrationFailed');
}
