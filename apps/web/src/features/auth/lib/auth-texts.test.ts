import {
  SIGNUP_DOMAIN_MESSAGE,
  SSO_ERROR_MESSAGES,
  SSO_MSG,
  type SsoErrorKind,
  signInLabel,
  ssoErrorKinds,
  TOTP_MSG,
} from '@parley/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../../../../../packages/protocol/catalogs/de.json';
import en from '../../../../../../packages/protocol/catalogs/en.json';
import { i18n } from '../../../lib/i18n/i18n';
import { localText, serverTextId } from '../../../lib/i18n/server-texts';
import { AUTH_SERVER_TEXTS } from './auth-texts';

// The auth screens' catalog texts that the protocol also writes (the server's and SPEC's words): the English
// catalog holds them word for word.

const english = en as Record<string, string>;

describe('the auth texts in the English catalog', () => {
  it('say single sign-on as the protocol does', () => {
    for (const kind of ssoErrorKinds)
      expect(english[`auth.sso.error.${kind}`], kind).toBe(SSO_ERROR_MESSAGES[kind as SsoErrorKind]);
    expect(english['auth.sso.signIn']).toBe(signInLabel('{name}'));
    expect(english['auth.sso.signUpOff']).toBe(SSO_MSG.signUpOff);
  });

  it('say the sign-up limits as the protocol does', () => {
    expect(english['auth.signup.domains']).toBe(`${SIGNUP_DOMAIN_MESSAGE}{domains}.`);
    expect(english['auth.signup.domainsInvite']).toBe(
      `${SIGNUP_DOMAIN_MESSAGE}{domains}. Another address needs an invite link.`,
    );
  });
});

describe('the server texts the auth screens meet beyond MSG', () => {
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: en }));

  it('are in the English catalog word for word, and known to the lookup', () => {
    for (const [text, id] of AUTH_SERVER_TEXTS) {
      expect(english[id], id).toBe(text);
      if (!text.includes('{')) expect(serverTextId(text)).toBe(id);
    }
    const filled = SSO_MSG.passwordsOff.replace('{name}', 'Acme ID (staff)');
    expect(localText(filled)).toBe(filled);
  });

  it('read in German for a German reader', () => {
    i18n.loadAndActivate({ locale: 'de', messages: de });
    expect(localText(TOTP_MSG.invalidCode)).toBe(de['msg.totp.invalidCode']);
    expect(localText(SSO_MSG.expired)).toBe(de['msg.sso.expired']);
    // A text the server filled in reads with the same name in it.
    expect(localText(SSO_MSG.passwordsOff.replace('{name}', 'Acme ID (staff)'))).toBe(
      'Die Anmeldung mit Passwort ist auf diesem Server ausgeschaltet. Melde dich mit Acme ID (staff) an.',
    );
  });
});
