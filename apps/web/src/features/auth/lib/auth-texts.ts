import {
  DEACTIVATED_LOGIN_MESSAGE,
  INVITE_INVALID_MESSAGE,
  SIGNUPS_CLOSED_MESSAGE,
  SSO_MSG,
  TOTP_MSG,
} from '@parley/protocol';
import type { MessageId } from '../../../lib/i18n/i18n';
import { knowServerTexts } from '../../../lib/i18n/server-texts';

// The server's English texts the auth screens meet beyond MSG (two-step sign-in, single sign-on, who may sign up),
// with their catalog ids: known to the app's lookup once this code loads.

type TotpKey = keyof typeof TOTP_MSG;
const totpId = (key: TotpKey): `msg.totp.${TotpKey}` & MessageId => `msg.totp.${key}`;

export const AUTH_SERVER_TEXTS: ReadonlyArray<readonly [english: string, id: MessageId]> = [
  ...(Object.keys(TOTP_MSG) as TotpKey[]).map((key) => [TOTP_MSG[key], totpId(key)] as const),
  [SSO_MSG.expired, 'msg.sso.expired'],
  [SSO_MSG.passwordsOff, 'msg.sso.passwordsOff'],
  [DEACTIVATED_LOGIN_MESSAGE, 'msg.deactivated'],
  [SIGNUPS_CLOSED_MESSAGE, 'msg.signupsClosed'],
  [INVITE_INVALID_MESSAGE, 'msg.inviteInvalid'],
];

knowServerTexts(AUTH_SERVER_TEXTS);
