import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractCode, newRegistration } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

// Without SMTP_URL mail goes to the dev outbox: files under DATA_DIR/outbox, readable at /dev/mail
// unless NODE_ENV is production.
let app: TestApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

describe('dev outbox', () => {
  it('stores the mail and shows it at /dev/mail and /dev/mail.json', async () => {
    app = await startTestApp({ env: { SMTP_URL: undefined } });
    const payload = newRegistration();
    expect((await app.post('/api/users/register/', payload)).status).toBe(200);

    const json = await app.get('/dev/mail.json');
    expect(json.status).toBe(200);
    expect(json.body).toHaveLength(1);
    const [stored] = json.body;
    expect(stored).toMatchObject({ to: payload.email, subject: expect.stringMatching(/verify/i) });
    const code = extractCode(stored.text);

    const files = await fs.readdir(path.join(app.dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    const file = JSON.parse(await fs.readFile(path.join(app.dataDir, 'outbox', files[0] ?? ''), 'utf8'));
    expect(file.to).toBe(payload.email);

    const page = await app.request('GET', '/dev/mail');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain(payload.email);
    expect(page.text).toContain(code);

    // The code from the outbox is the real one, and nothing went over SMTP.
    const verified = await app.post('/api/users/email/verify/signup/', {
      email: payload.email,
      verification_code: code,
    });
    expect(verified.status).toBe(200);
    expect(app.mail.mails).toHaveLength(0);
  });

  it('escapes mail contents on the HTML page', async () => {
    app = await startTestApp({ env: { SMTP_URL: undefined } });
    await app.ctx.mailer.send({
      to: 'someone@example.test',
      subject: '<script>alert(1)</script>',
      text: 'Hello <img src=x onerror=alert(2)> & bye',
    });
    const page = await app.request('GET', '/dev/mail');
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/<script>alert|<img src=x/i);
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).toContain('Hello &lt;img src=x onerror=alert(2)&gt; &amp; bye');
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('is absent when NODE_ENV is production', async () => {
    app = await startTestApp({ env: { SMTP_URL: undefined, NODE_ENV: 'production' } });
    expect((await app.post('/api/users/register/', newRegistration())).status).toBe(200);
    expect((await app.request('GET', '/dev/mail')).status).toBe(404);
    expect((await app.request('GET', '/dev/mail.json')).status).toBe(404);
    // Mail is still kept in the outbox, just not served.
    expect(await fs.readdir(path.join(app.dataDir, 'outbox'))).toHaveLength(1);
  });

  it('is absent when SMTP_URL is set', async () => {
    app = await startTestApp();
    expect((await app.request('GET', '/dev/mail')).status).toBe(404);
    expect((await app.request('GET', '/dev/mail.json')).status).toBe(404);
  });
});
