import { describe, expect, it } from 'vitest';
import { people, startChat } from '../chats/chat-helpers';
import { extractCode, newRegistration } from '../helpers/factories';
import { type SignedUp, type TestApp, useTestApp } from '../helpers/test-app';

// Mail in the recipient's language: a sign-up's code in its browser's language (Accept-Language), and every
// later mail in the language chosen in Settings, else still the sign-up's. English stays word for word.
const app = useTestApp({ config: { emailNotifyDelayMs: 300, publicUrl: 'http://parley.test' } });

async function signUpIn(t: TestApp, acceptLanguage: string) {
  const payload = newRegistration();
  const res = await t.request('POST', '/api/users/register/', {
    json: payload,
    headers: { 'Accept-Language': acceptLanguage },
  });
  expect(res.status, res.text).toBe(200);
  return payload;
}

const chooseLanguage = async (t: TestApp, person: SignedUp, language: string | null) =>
  expect((await t.put('/api/users/profile/settings/', { language }, person.token)).status).toBe(200);

describe('mail in the recipient’s language', () => {
  it('writes a sign-up’s code in its browser’s language, and in English when it has none of Parley’s', async () => {
    const t = app();
    const french = await signUpIn(t, 'fr-CA,fr;q=0.9,en;q=0.5');
    const mail = await t.mail.waitFor(french.email);
    expect(mail.subject).toBe('Confirmez votre compte Parley');
    expect(mail.text).toMatch(/^Votre code Parley est \d{6}\n\nIl expire dans 15 minutes/);

    const klingon = await signUpIn(t, 'tlh, x-klingon;q=0.8');
    const english = await t.mail.waitFor(klingon.email);
    expect(english.subject).toBe('Verify your Parley account');
    expect(english.text.trimEnd()).toBe(
      `Your Parley code is ${extractCode(english.text)}\n\nIt expires in 15 minutes and works once. If you did not ask for it, ignore this mail.`,
    );
  });

  it('follows the language chosen in Settings: the reset code and notice in German, the digest in French', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    await chooseLanguage(t, ada, 'de');
    expect((await t.post('/api/users/password/reset/request/', { email: ada.payload.email })).status).toBe(
      200,
    );
    const reset = await t.mail.waitFor(ada.payload.email, { subject: /Passwort/ });
    expect(reset.subject).toBe('Dein Code zum Zurücksetzen des Parley-Passworts');
    expect(reset.text).toContain('Dein Parley-Code lautet');

    await chooseLanguage(t, grace, 'fr');
    expect(
      (await t.put('/api/users/profile/settings/', { email_notification: true }, grace.token)).status,
    ).toBe(200);
    const chatId = await startChat(t, ada.token, grace.user.id);
    for (const body of ['Bonjour', 'Encore moi']) await t.ctx.messages.send(ada.user.id, chatId, { body });
    const digest = await t.mail.waitFor(grace.payload.email, { subject: /non lus/, timeoutMs: 10_000 });
    expect(digest.subject).toBe('Vous avez 2 messages non lus sur Parley');
    expect(digest.text).toContain('Bonjour Grace,');
    expect(digest.text).toContain('Ada Tester: 2 messages non lus');
    expect(digest.text).toContain('Désactivez-les dans vos paramètres : http://parley.test/settings');
  });

  it('writes Arabic plurals by their rules', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    await chooseLanguage(t, grace, 'ar');
    expect(
      (await t.put('/api/users/profile/settings/', { email_notification: true }, grace.token)).status,
    ).toBe(200);
    const chatId = await startChat(t, ada.token, grace.user.id);
    for (const body of ['one', 'two']) await t.ctx.messages.send(ada.user.id, chatId, { body });
    const digest = await t.mail.waitFor(grace.payload.email, { subject: /مقروء/, timeoutMs: 10_000 });
    expect(digest.subject).toBe('لديك رسالتان غير مقروءتين في Parley');
  });
});
