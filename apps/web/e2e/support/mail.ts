import { type APIRequestContext, expect } from '@playwright/test';

interface OutboxMail {
  id: string | number;
  to: string | string[];
  subject: string;
  text: string;
  date: string;
}

// `to` may be a bare address or 'Name <address>'; the address must match whole.
const addressOf = (to: string) => (to.match(/<([^>]+)>/)?.[1] ?? to).trim().toLowerCase();
const addressedTo = (mail: OutboxMail, email: string) =>
  (Array.isArray(mail.to) ? mail.to : mail.to.split(',')).some((to) => addressOf(to) === email.toLowerCase());

/** The newest 6-digit code mailed to `email` (the dev outbox lists newest first), waiting for it to arrive. */
export async function readCode(
  request: APIRequestContext,
  email: string,
  options: { subject?: RegExp; notIn?: string[] } = {},
): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        const response = await request.get('/dev/mail.json');
        expect(response.ok()).toBe(true);
        const mails = (await response.json()) as OutboxMail[];
        const mail = mails.find(
          (m) =>
            addressedTo(m, email) &&
            (!options.subject || options.subject.test(m.subject)) &&
            /\b\d{6}\b/.test(m.text) &&
            !options.notIn?.includes(m.text.match(/\b(\d{6})\b/)?.[1] ?? ''),
        );
        code = mail?.text.match(/\b(\d{6})\b/)?.[1] ?? null;
        return code;
      },
      { message: `a code mailed to ${email}`, timeout: 15_000 },
    )
    .not.toBeNull();
  return code!;
}

export async function mailsTo(request: APIRequestContext, email: string): Promise<OutboxMail[]> {
  const response = await request.get('/dev/mail.json');
  return ((await response.json()) as OutboxMail[]).filter((m) => addressedTo(m, email));
}
