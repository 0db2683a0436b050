import { CODE_TTL_MINUTES } from '@parley/protocol';
import type { Mail } from '../../platform/mail';

// The texts of the account mails.
export const codeMail = (to: string, subject: string, code: string): Mail => ({
  to,
  subject,
  text: `Your Parley code is ${code}\n\nIt expires in ${CODE_TTL_MINUTES} minutes and works once. If you did not ask for it, ignore this mail.`,
});

export const passwordResetNotice = (to: string): Mail => ({
  to,
  subject: 'Your Parley password was changed',
  text: 'Your Parley password was just reset and every signed-in session was signed out.\n\nIf this was not you, reset your password again at once.',
});

export const emailChangedNotice = (to: string, newEmail: string): Mail => ({
  to,
  subject: 'Your Parley email address was changed',
  text: `The email address of your Parley account was changed to ${newEmail}.\n\nIf this was not you, contact the operator of this Parley server.`,
});
