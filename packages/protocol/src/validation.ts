import {
  CODE_LENGTH,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './constants';
import { MSG } from './messages';

// The auth forms' field rules (SPEC §5), one function per mode; each returns the first error per field.
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const looksLikeEmail = (value: string): boolean => EMAIL_RE.test(value.trim());

export interface LoginForm {
  email: string;
  password: string;
}
export function validateLogin(form: LoginForm): FieldErrors<keyof LoginForm> {
  const errors: FieldErrors<keyof LoginForm> = {};
  if (!form.email.trim()) errors.email = MSG.emailRequired;
  else if (!looksLikeEmail(form.email)) errors.email = MSG.emailInvalidLogin;
  if (!form.password) errors.password = MSG.passwordRequired;
  else if (form.password.length < PASSWORD_MIN_LENGTH) errors.password = MSG.passwordTooShort;
  return errors;
}

export interface SignupForm {
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  confirm_password: string;
}
export function validateSignup(form: SignupForm): FieldErrors<keyof SignupForm> {
  const errors: FieldErrors<keyof SignupForm> = {};
  const username = form.username.trim();
  if (!username) errors.username = MSG.usernameRequired;
  else if (username.length < USERNAME_MIN_LENGTH) errors.username = MSG.usernameTooShort;
  else if (username.length > USERNAME_MAX_LENGTH) errors.username = MSG.usernameTooLong;
  else if (username.toLowerCase() === form.email.trim().toLowerCase())
    errors.username = MSG.usernameEqualsEmail;
  if (!form.first_name.trim()) errors.first_name = MSG.firstNameRequired;
  else if (form.first_name.trim().length > NAME_MAX_LENGTH) errors.first_name = MSG.firstNameTooLong;
  if (!form.last_name.trim()) errors.last_name = MSG.lastNameRequired;
  else if (form.last_name.trim().length > NAME_MAX_LENGTH) errors.last_name = MSG.lastNameTooLong;
  if (!form.email.trim()) errors.email = MSG.emailRequired;
  else if (form.email.trim().length > EMAIL_MAX_LENGTH) errors.email = MSG.emailTooLong;
  else if (!looksLikeEmail(form.email)) errors.email = MSG.emailInvalid;
  if (!form.password) errors.password = MSG.passwordRequired;
  else if (form.password.length < PASSWORD_MIN_LENGTH) errors.password = MSG.passwordTooShort;
  else if (form.password.length > PASSWORD_MAX_LENGTH) errors.password = MSG.passwordTooLong;
  if (!form.confirm_password) errors.confirm_password = MSG.confirmPasswordRequired;
  else if (form.confirm_password !== form.password) errors.confirm_password = MSG.passwordsDoNotMatch;
  return errors;
}

export function validateCode(code: string): string | null {
  if (!code) return MSG.codeRequired;
  if (!new RegExp(`^\\d{${CODE_LENGTH}}$`).test(code)) return MSG.codeSixDigits;
  return null;
}

/** Typed input for a code box: keeps digits, at most six, and says whether anything was dropped. */
export function sanitizeCodeInput(raw: string): { code: string; stripped: boolean } {
  const digits = raw.replace(/\D/g, '');
  return { code: digits.slice(0, CODE_LENGTH), stripped: digits.length !== raw.length };
}
