import { AUDIT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { people, say, startChat } from '../chats/chat-helpers';
import type { SignedUp, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { joinRoom } from '../helpers/ws-client';
import { adminAndPeople, auditOf } from './admin-helpers';

// The reports queue in the admin API: a site admin reads reports with the message in context and
// resolves them — dismiss, delete the message for everyone (the room hears it), or deactivate its author.
const app = useTestApp();

async function reportedChat(t: TestApp) {
  const { admin } = await adminAndPeople(t, 0);
  const [ada, grace] = (await people(t, 'Ada', 'Grace')) as [SignedUp, SignedUp];
  const chatId = await startChat(t, ada.token, grace.user.username);
  const graceRoom = await joinRoom(t, grace.token, chatId);
  const adaRoom = await joinRoom(t, ada.token, chatId);
  await say(graceRoom, 'hello there');
  const bad = await say(graceRoom, 'buy cheap pills');
  await say(adaRoom, 'please stop');
  const res = await t.post('/api/reports/', { message_id: bad.id, reason: 'spam', note: 'again' }, ada.token);
  expect(res.status, res.text).toBe(200);
  return { admin, ada, grace, chatId, graceRoom, adaRoom, bad, reportId: res.body.id as number };
}

describe('the reports queue', () => {
  it('lists open reports and shows one with its message in context', async () => {
    const { admin, ada, grace, bad, reportId, graceRoom, adaRoom } = await reportedChat(app());
    const list = await app().get('/api/admin/reports/?status=open', admin.token);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(1);
    expect(list.body.results[0]).toMatchObject({
      id: reportId,
      reason: 'spam',
      reporter: { id: ada.user.id },
      target: { id: grace.user.id },
      message_body: 'buy cheap pills',
    });
    const one = await app().get(`/api/admin/reports/${reportId}/`, admin.token);
    expect(one.body.context.map((m: { body: string }) => m.body)).toEqual([
      'hello there',
      'buy cheap pills',
      'please stop',
    ]);
    expect(one.body.message_id).toBe(bad.id);
    expect((await app().get('/api/admin/reports/', ada.token)).status).toBe(404);
    await graceRoom.close();
    await adaRoom.close();
  });

  it('dismiss records the outcome only; a second resolution is refused', async () => {
    const { admin, reportId, graceRoom, adaRoom } = await reportedChat(app());
    const res = await app().post(
      `/api/admin/reports/${reportId}/resolve/`,
      { action: 'dismiss', note: 'not spam' },
      admin.token,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: 'resolved',
      resolution: { action: 'dismiss', note: 'not spam', resolved_by: { id: admin.user.id } },
    });
    expect(graceRoom.isOpen).toBe(true);
    const again = await app().post(
      `/api/admin/reports/${reportId}/resolve/`,
      { action: 'dismiss' },
      admin.token,
    );
    expect(again.status).toBe(409);
    expect((await app().get('/api/admin/reports/?status=open', admin.token)).body.count).toBe(0);
    const [event] = await auditOf(app(), admin.token, AUDIT.reportResolved);
    expect(event).toMatchObject({
      actor: { id: admin.user.id },
      detail: { report_id: reportId, action: 'dismiss' },
    });
    const bad = await app().post(`/api/admin/reports/${reportId}/resolve/`, { action: 'ban' }, admin.token);
    expect(bad.status).toBe(400);
    expect(
      (await app().post('/api/admin/reports/99999/resolve/', { action: 'dismiss' }, admin.token)).status,
    ).toBe(404);
    await graceRoom.close();
    await adaRoom.close();
  });

  it('delete message erases it for everyone and the room hears it', async () => {
    const { admin, ada, chatId, bad, reportId, graceRoom, adaRoom } = await reportedChat(app());
    const res = await app().post(
      `/api/admin/reports/${reportId}/resolve/`,
      { action: 'delete_message', note: 'spam' },
      admin.token,
    );
    expect(res.status, res.text).toBe(200);
    expect((await adaRoom.next('message_deleted')).message_id).toBe(bad.id);
    expect((await graceRoom.next('message_deleted')).message_id).toBe(bad.id);
    const history = await app().get(`/api/chats/${chatId}/messages/`, ada.token);
    const gone = (history.body.results ?? history.body).find((m: { id: number }) => m.id === bad.id);
    expect(gone).toMatchObject({ is_deleted: true, body: '' });
    await graceRoom.close();
    await adaRoom.close();
  });

  it('deactivate the author closes their sockets and refuses their login', async () => {
    const { admin, grace, reportId, graceRoom, adaRoom } = await reportedChat(app());
    const res = await app().post(
      `/api/admin/reports/${reportId}/resolve/`,
      { action: 'deactivate_user', note: 'spammer' },
      admin.token,
    );
    expect(res.status, res.text).toBe(200);
    expect((await graceRoom.closed(3000)).code).toBe(4001);
    expect(adaRoom.isOpen).toBe(true);
    expect((await app().login(grace.payload.email, grace.payload.password)).status).toBe(403);
    const [deactivated] = await auditOf(app(), admin.token, AUDIT.userDeactivated);
    expect(deactivated).toMatchObject({ target: { id: grace.user.id }, detail: { note: 'spammer' } });
    await adaRoom.close();
  });
});
