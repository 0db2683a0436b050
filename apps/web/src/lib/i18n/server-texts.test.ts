import { setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { MSG } from '@parley/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../../../../packages/protocol/catalogs/de.json';
import en from '../../../../../packages/protocol/catalogs/en.json';
import { ApiError, fieldErrors, firstFieldError, serverErrorOr } from '../http/api-error';
import { i18n } from './i18n';
import { localText, MSG_TEXT_IDS, serverTextId } from './server-texts';

// The server's English texts, shown in the reader's language by their catalog ids.

const english = en as Record<string, string>;
const inGerman = () => i18n.loadAndActivate({ locale: 'de', messages: de });

describe('the server texts in the catalogs', () => {
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: en }));

  it("hold every MSG text word for word under 'msg.<key>'", () => {
    for (const [key, text] of Object.entries(MSG)) expect(english[`msg.${key}`], key).toBe(text);
  });

  it('map every MSG text to an id whose English is that text', () => {
    for (const [text, id] of MSG_TEXT_IDS) {
      expect(english[id], id).toBe(text);
      expect(serverTextId(text)).toBe(id);
    }
    const check = setupI18n();
    check.setMessagesCompiler(compileMessage);
    check.loadAndActivate({ locale: 'en', messages: en });
    for (const [text, id] of MSG_TEXT_IDS) expect(check._(id)).toBe(text);
  });

  it('keep English as it came, and unknown texts as they came', () => {
    expect(localText(MSG.invalidCredentials)).toBe(MSG.invalidCredentials);
    expect(localText('Something only this server says.')).toBe('Something only this server says.');
  });

  it("show a server's refusal in German to a German reader", () => {
    inGerman();
    expect(localText(MSG.invalidCredentials)).toBe(de['msg.invalidCredentials']);
    expect(localText('Something only this server says.')).toBe('Something only this server says.');
    const refused = new ApiError(401, { detail: MSG.invalidCredentials });
    expect(serverErrorOr(refused, 'fallback')).toBe('E-Mail-Adresse oder Passwort ist falsch.');
    const body = { username: [MSG.usernameTaken], email: ['Not one of ours'] };
    expect(firstFieldError(body)).toBe(de['msg.usernameTaken']);
    expect(fieldErrors(body)).toEqual({ username: de['msg.usernameTaken'], email: 'Not one of ours' });
  });

  it('give the English helpers the same output as before when English is active', () => {
    const body = { detail: MSG.tooManyRequests };
    expect(serverErrorOr(new ApiError(429, body), 'fallback')).toBe(MSG.tooManyRequests);
    expect(serverErrorOr(new ApiError(400, { email: [MSG.emailTaken] }), 'f')).toBe(MSG.emailTaken);
    expect(serverErrorOr(new ApiError(500, {}), 'fallback')).toBe('fallback');
  });
});
