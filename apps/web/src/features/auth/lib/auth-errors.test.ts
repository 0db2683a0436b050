import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http/api-error';
import {
  LOGIN_FAILED,
  loginFailureMessage,
  NO_RESPONSE,
  REGISTRATION_FAILED,
  registrationFailureMessage,
  totpRequired,
  UNEXPECTED,
  verificationRequired,
} from './auth-errors';

describe('loginFailureMessage (SPEC §8)', () => {
  it('uses the message of a verification hand-off plus the email', () => {
    const error = new ApiError(403, {
      detail: { requires_verification: true, email: 'a@b.co', message: 'Verify first.' },
    });
    expect(loginFailureMessage(error)).toBe('Verify first. (a@b.co)');
  });

  it('falls back to the default verification text', () => {
    const error = new ApiError(403, { detail: { requires_verification: true, email: 'a@b.co' } });
    expect(loginFailureMessage(error)).toBe('Please verify your email address before logging in. (a@b.co)');
  });

  it('prefers detail, then message, then non_field_errors, then error', () => {
    expect(
      loginFailureMessage(new ApiError(400, { detail: 'Invalid email or password.', message: 'm' })),
    ).toBe('Invalid email or password.');
    expect(loginFailureMessage(new ApiError(400, { message: 'From message', error: 'e' }))).toBe(
      'From message',
    );
    expect(
      loginFailureMessage(new ApiError(400, { non_field_errors: ['First', 'Second'], error: 'e' })),
    ).toBe('First');
    expect(loginFailureMessage(new ApiError(400, { error: 'From error' }))).toBe('From error');
  });

  it('shows the raw body when it is text', () => {
    expect(loginFailureMessage(new ApiError(502, 'Bad gateway'))).toBe('Bad gateway');
  });

  it('uses a field message before giving up', () => {
    expect(loginFailureMessage(new ApiError(400, { email: ['Email is invalid'] }))).toBe('Email is invalid');
  });

  it("says 'Server error:' with the status when the body has nothing to show", () => {
    expect(loginFailureMessage(new ApiError(500, null))).toBe('Server error: 500');
    expect(loginFailureMessage(new ApiError(500, {}))).toBe('Server error: 500');
  });

  it('reports a missing response', () => {
    expect(loginFailureMessage(new ApiError(0, null))).toBe(NO_RESPONSE);
  });

  it("uses the error's own message, else the unexpected text", () => {
    expect(loginFailureMessage(new Error('Boom'))).toBe('Boom');
    expect(loginFailureMessage(new Error(''))).toBe(UNEXPECTED);
  });

  it('defaults for anything else', () => {
    expect(loginFailureMessage(undefined)).toBe(LOGIN_FAILED);
    expect(loginFailureMessage('weird')).toBe(LOGIN_FAILED);
  });
});

describe('verificationRequired', () => {
  it('recognises only a 403-style detail object with the flag', () => {
    expect(
      verificationRequired(new ApiError(403, { detail: { requires_verification: true, email: 'x@y.z' } })),
    ).toEqual({ email: 'x@y.z', message: null });
    expect(verificationRequired(new ApiError(400, { detail: 'No' }))).toBeNull();
    expect(verificationRequired(new Error('x'))).toBeNull();
  });
});

describe('registrationFailureMessage (SPEC §8)', () => {
  it('prefers detail, then message, then the first non_field_errors entry', () => {
    expect(registrationFailureMessage(new ApiError(400, { detail: 'D', message: 'M' }))).toBe('D');
    expect(registrationFailureMessage(new ApiError(400, { message: 'M', non_field_errors: ['N'] }))).toBe(
      'M',
    );
    expect(registrationFailureMessage(new ApiError(400, { non_field_errors: ['N'] }))).toBe('N');
  });

  it('falls back to the default text', () => {
    expect(registrationFailureMessage(new ApiError(400, { username: ['Taken'] }))).toBe(REGISTRATION_FAILED);
    expect(registrationFailureMessage(new ApiError(0, null))).toBe(REGISTRATION_FAILED);
    expect(registrationFailureMessage(new Error('x'))).toBe(REGISTRATION_FAILED);
  });
});

describe('totpRequired', () => {
  it('is the 401 that asks a right password for its second step', () => {
    expect(
      totpRequired(new ApiError(401, { detail: { requires_totp: true, message: 'Enter the code' } })),
    ).toBe(true);
  });

  it('is not any other refusal', () => {
    expect(totpRequired(new ApiError(401, { detail: 'Invalid or expired token.' }))).toBe(false);
    expect(totpRequired(new ApiError(400, { detail: { requires_totp: true } }))).toBe(false);
    expect(totpRequired(new ApiError(403, { detail: { requires_verification: true } }))).toBe(false);
    expect(totpRequired(new ApiError(0, null))).toBe(false);
    expect(totpRequired(new Error('x'))).toBe(false);
  });
});
