import { describe, expect, it } from 'vitest';
import { createGroup, people, startChat } from '../chats/chat-helpers';
import { type TestApp, useTestApp } from '../helpers/test-app';

// A multipart body the server cannot parse is the client's fault: 400 with a clear message, never a 500
// (found by probing the running server).
const app = useTestApp();

const MALFORMED = 'The form could not be read: the multipart body is malformed.';
const CRLF = '\r\n';

/** Bodies a broken or hostile client sends, with the content type that goes with each. */
const broken = (field: string) => {
  const part = (boundary: string) =>
    [
      `--${boundary}`,
      `Content-Disposition: form-data; name="${field}"; filename="a.png"`,
      'Content-Type: image/png',
      '',
      'not really a png',
    ].join(CRLF);
  return [
    { what: 'no boundary', type: 'multipart/form-data', body: `${part('x')}${CRLF}--x--${CRLF}` },
    {
      what: 'a boundary other than the one declared',
      type: 'multipart/form-data; boundary=declared',
      body: `${part('other')}${CRLF}--other--${CRLF}`,
    },
    { what: 'a part cut short', type: 'multipart/form-data; boundary=cut', body: part('cut').slice(0, 60) },
  ];
};

async function expectRefused(t: TestApp, method: string, url: string, token: string, field: string) {
  for (const { what, type, body } of broken(field)) {
    const res = await t.request(method, url, { rawBody: body, token, headers: { 'content-type': type } });
    expect(res.status, `${url}: ${what} (${res.text})`).toBe(400);
    expect(res.body, what).toEqual({ detail: MALFORMED });
  }
}

describe('malformed multipart bodies', () => {
  it('are a 400 on the profile update, the attachment upload and the group update', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    const group = await createGroup(t, ada.token, 'Forms');
    await expectRefused(t, 'PUT', '/api/users/profile/update/', ada.token, 'image');
    await expectRefused(t, 'POST', `/api/chats/${chatId}/attachments/`, ada.token, 'files');
    await expectRefused(t, 'PATCH', `/api/chats/${group}/`, ada.token, 'image');
    // The server is still well: a normal call on the same app answers.
    expect((await t.get('/api/users/profile/', ada.token)).status).toBe(200);
  });
});
