import {
  ACCOUNT_DELETE_MSG,
  BOT_TEXT,
  COMMAND_TEXT,
  EXPORT_MSG,
  MAX_BOT_COMMANDS,
  TOKEN_TEXT,
  TOTP_MSG,
} from '@parley/protocol';
import { i18n, type MessageId } from '../../../lib/i18n/i18n';
import { knowServerTexts } from '../../../lib/i18n/server-texts';
import { intlLocale } from '../../../lib/text/locale-format';

// The server's English texts Settings meets beyond MSG (email change, two-step sign-in, sessions, exports, API
// tokens, bots and their commands), with their catalog ids: known to the app's lookup once this code loads.

export const ACCOUNT_SERVER_TEXTS: ReadonlyArray<readonly [english: string, id: MessageId]> = [
  // Two-step sign-in's refusals, as the sign-in screen knows them.
  ...Object.entries(TOTP_MSG).map(([key, text]) => [text, `msg.totp.${key}` as MessageId] as const),
  ['This is already your email address.', 'account.email.alreadyYours'],
  ['A verification code has been sent to your new email.', 'account.email.codeSentToNew'],
  ['Email updated successfully.', 'account.email.updated'],
  ['Desktop', 'account.sessions.desktop'],
  ['Mobile', 'account.sessions.mobile'],
  ['Tablet', 'account.sessions.tablet'],
  ['TV', 'account.sessions.tv'],
  ['Unknown device', 'account.sessions.unknownDevice'],
  ['Unknown browser', 'account.sessions.unknownBrowser'],
  ['Unknown system', 'account.sessions.unknownSystem'],
  [EXPORT_MSG.started, 'account.export.started'],
  [EXPORT_MSG.notReady, 'account.export.notReady'],
  [EXPORT_MSG.failed, 'account.export.failed'],
  [EXPORT_MSG.expired, 'account.export.expired'],
  [ACCOUNT_DELETE_MSG.passwordNeeded, 'account.delete.passwordNeeded'],
  ['Give the token a name.', 'account.tokens.nameRequired'],
  [TOKEN_TEXT.signInRequired, 'account.tokens.signInRequired'],
  [TOKEN_TEXT.readOnly, 'account.tokens.readOnly'],
  ['At most 60 characters.', 'account.atMost60'],
  ['At most 500 characters.', 'account.atMost500'],
  ['Give the bot a name.', 'account.bots.nameRequired'],
  ['Bot not found.', 'account.bots.notFound'],
  [BOT_TEXT.noBots, 'account.bots.onlyAdmins'],
  [BOT_TEXT.badEventsUrl, 'account.bots.httpsOnly'],
  [COMMAND_TEXT.badName, 'account.commands.badName'],
  [COMMAND_TEXT.builtinName, 'account.commands.builtin'],
  [COMMAND_TEXT.taken, 'account.commands.taken'],
  [COMMAND_TEXT.tooMany.replace(String(MAX_BOT_COMMANDS), '{count}'), 'account.commands.tooMany'],
  [COMMAND_TEXT.notFound, 'account.commands.notFound'],
];

knowServerTexts(ACCOUNT_SERVER_TEXTS);

/** A day as the reader's locale writes it in medium length ('29 Nov 2026', '29.11.2026'). */
export const mediumDate = (iso: string): string =>
  new Intl.DateTimeFormat(intlLocale(i18n.locale), { dateStyle: 'medium' }).format(new Date(iso));
