import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../../src/modules/accounts/session.service';
import { useTestApp } from '../helpers/test-app';
import {
  connectWs,
  joinRoom,
  NOTIFICATIONS_PATH,
  openNotifications,
  roomPath,
  ticketFor,
  WsClient,
  wsUrl,
} from '../helpers/ws-client';
import {
  addMember,
  createGroup,
  history,
  people,
  removeMember,
  say,
  seedMessages,
  startChat,
} from './chat-helpers';

// Who may open a socket (DESIGN §1 socket tickets, §6 close codes, §7 origin): tickets are single use and
// short-lived, a session token also works, anything else closes with 4001; a chat that does not exist or
// that the user is not in closes with 4004; a revoked session's sockets close with 4001.
const app = useTestApp();

afterEach(() => {
  vi.useRealTimers();
});

describe('POST /api/ws/ticket/', () => {
  it('gives a ticket that opens a socket once; the second use closes with 4001', async () => {
    const [ada] = await people(app(), 'Ada');
    const res = await app().post('/api/ws/ticket/', {}, ada.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ticket: expect.any(String) });
    const ticket = res.body.ticket as string;
    expect(ticket).not.toContain(ada.token);

    const first = await WsClient.connect(wsUrl(app(), NOTIFICATIONS_PATH, ticket));
    expect((await first.next('notification_count')).count).toBe(0);
    expect(first.isOpen).toBe(true);

    const again = await WsClient.connect(wsUrl(app(), NOTIFICATIONS_PATH, ticket));
    expect((await again.closed()).code).toBe(4001);
    expect(again.received('notification_count')).toEqual([]);
    expect(first.isOpen).toBe(true);
    await first.close();
  });

  it('gives a different ticket each time, each usable once, on both channels', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const t1 = await ticketFor(app(), ada.token);
    const t2 = await ticketFor(app(), ada.token);
    expect(t1).not.toBe(t2);
    const room = await WsClient.connect(wsUrl(app(), roomPath(chatId), t1));
    expect((await room.next('in_chat_count')).count).toBe(1);
    const reuse = await WsClient.connect(wsUrl(app(), roomPath(chatId), t1));
    expect((await reuse.closed()).code).toBe(4001);
    const notes = await WsClient.connect(wsUrl(app(), NOTIFICATIONS_PATH, t2));
    await notes.next('notification_count');
    await Promise.all([room.close(), notes.close()]);
  });

  it('refuses a ticket older than 30 seconds', async () => {
    const [ada] = await people(app(), 'Ada');
    const ticket = await ticketFor(app(), ada.token);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31_000);
    const late = await WsClient.connect(wsUrl(app(), NOTIFICATIONS_PATH, ticket));
    expect((await late.closed()).code).toBe(4001);
  });

  it('refuses a ticket whose session has ended since it was issued', async () => {
    const [ada] = await people(app(), 'Ada');
    const ticket = await ticketFor(app(), ada.token);
    expect((await app().post('/api/users/logout/', {}, ada.token)).status).toBe(200);
    const client = await WsClient.connect(wsUrl(app(), NOTIFICATIONS_PATH, ticket));
    expect((await client.closed()).code).toBe(4001);
  });
});

describe('socket credentials', () => {
  it('accepts a session token in ?token= on both channels', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const room = await joinRoom(app(), ada.token, chatId, { rawToken: true });
    const sent = await say(room, 'by token');
    expect(sent.sender).toBe(ada.user.id);
    const { client } = await openNotifications(app(), ada.token, { rawToken: true });
    expect(client.isOpen).toBe(true);
    await Promise.all([room.close(), client.close()]);
  });

  it('accepts a session token that happens to start like a ticket ("t_")', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const token = `t_${'A'.repeat(41)}`;
    const now = Date.now();
    await app()
      .ctx.db.insertInto('sessions')
      .values({
        user_id: ada.user.id,
        token_hash: hashToken(token),
        remember: 1,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + 3600_000).toISOString(),
      })
      .execute();
    const room = await joinRoom(app(), token, chatId, { rawToken: true });
    expect((await say(room, 'still me')).sender).toBe(ada.user.id);
    await room.close();
  });

  it('closes with 4001 for a junk, missing or revoked credential', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const loggedOut = (await app().login(ada.payload.email, ada.payload.password)).body.token as string;
    expect((await app().post('/api/users/logout/', {}, loggedOut)).status).toBe(200);

    for (const path of [roomPath(chatId), NOTIFICATIONS_PATH]) {
      for (const credential of ['junk', 't_not-a-ticket', '', undefined, loggedOut]) {
        const client = await WsClient.connect(wsUrl(app(), path, credential));
        expect((await client.closed()).code, `${path} ${credential}`).toBe(4001);
        expect(client.frames).toEqual([]);
      }
    }
  });

  it('closes with 4001 for a browser from another origin, and accepts the page origin', async () => {
    const [ada] = await people(app(), 'Ada');
    const foreign = await connectWs(app(), NOTIFICATIONS_PATH, ada.token, {
      headers: { Origin: 'https://evil.example' },
    });
    expect((await foreign.closed()).code).toBe(4001);
    const own = await connectWs(app(), NOTIFICATIONS_PATH, ada.token, { headers: { Origin: app().baseUrl } });
    await own.next('notification_count');
    await own.close();
  });
});

describe('chat room refusals', () => {
  it('closes with 4004 for a chat that does not exist and for a non-member, before any frame', async () => {
    const [ada, grace, eve] = await people(app(), 'Ada', 'Grace', 'Eve');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const groupId = await createGroup(app(), ada.token, 'Inner circle');
    await seedMessages(app(), ada.user.id, chatId, ['secret']);

    const adaRoom = await joinRoom(app(), ada.token, chatId);
    const seenBefore = adaRoom.frames.length;
    for (const [token, id] of [
      [ada.token, 'no-such-chat'],
      [eve.token, chatId],
      [eve.token, groupId],
      [grace.token, groupId],
    ] as const) {
      const client = await connectWs(app(), roomPath(id), token);
      const { code, reason } = await client.closed();
      expect(code, id).toBe(4004);
      expect(reason).toBe('Chat room not found');
      expect(client.frames).toEqual([]);
    }
    // Nobody was announced in Ada's room.
    await say(adaRoom, 'still alone');
    expect(adaRoom.frames.slice(seenBefore).map((f) => f.type)).toEqual(['chat_message']);
    await adaRoom.close();
  });

  it('checks membership on every frame: a removed member is closed with 4004 and stores nothing', async () => {
    const [ada, grace, eve] = await people(app(), 'Ada', 'Grace', 'Eve');
    const groupId = await createGroup(app(), ada.token, 'Fluid');
    await addMember(app(), groupId, grace.user.id);
    await addMember(app(), groupId, eve.user.id);
    const adaRoom = await joinRoom(app(), ada.token, groupId);
    const eveRoom = await joinRoom(app(), eve.token, groupId);
    await adaRoom.next('in_chat_count', (f) => f.count === 2);
    await say(eveRoom, 'before removal');

    await removeMember(app(), groupId, eve.user.id);
    eveRoom.send({ type: 'chat_message', body: 'after removal', client_id: 'late' });
    expect((await eveRoom.closed()).code).toBe(4004);
    expect((await history(app(), ada.token, groupId)).map((m) => m.body)).toEqual(['before removal']);
    await adaRoom.close();
  });

  it('closes a removed member who only types, without relaying the typing', async () => {
    const [ada, eve] = await people(app(), 'Ada', 'Eve');
    const groupId = await createGroup(app(), ada.token, 'Typing club');
    await addMember(app(), groupId, eve.user.id);
    const adaRoom = await joinRoom(app(), ada.token, groupId);
    const eveRoom = await joinRoom(app(), eve.token, groupId);
    await adaRoom.next('in_chat_count', (f) => f.count === 2);
    await removeMember(app(), groupId, eve.user.id);

    eveRoom.send({ type: 'typing', is_typing: true });
    expect((await eveRoom.closed()).code).toBe(4004);
    // Eve's leaving is announced after her typing frame would have been; no typing reached Ada.
    await adaRoom.next('in_chat_count', (f) => f.count === 1);
    expect(adaRoom.received('typing')).toEqual([]);
    await adaRoom.close();
  });
});

describe('revoked sessions', () => {
  it("logout closes that session's sockets with 4001 within seconds and leaves other sessions open", async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const other = (await app().login(ada.payload.email, ada.payload.password)).body.token as string;

    const room = await joinRoom(app(), ada.token, chatId);
    const { client: notes } = await openNotifications(app(), ada.token);
    const otherRoom = await joinRoom(app(), other, chatId);
    const { client: otherNotes } = await openNotifications(app(), other);

    expect((await app().post('/api/users/logout/', {}, ada.token)).status).toBe(200);
    expect((await room.closed(2000)).code).toBe(4001);
    expect((await notes.closed(2000)).code).toBe(4001);

    expect(otherRoom.isOpen).toBe(true);
    expect(otherNotes.isOpen).toBe(true);
    const sent = await say(otherRoom, 'still here');
    expect(sent.body).toBe('still here');
    await Promise.all([otherRoom.close(), otherNotes.close()]);
  });

  it('account deletion closes every socket of the account with 4001', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const other = (await app().login(ada.payload.email, ada.payload.password)).body.token as string;
    const room = await joinRoom(app(), ada.token, chatId);
    const { client: notes } = await openNotifications(app(), other);
    const graceRoom = await joinRoom(app(), grace.token, chatId);

    expect((await app().deleteAccount(ada.token)).status).toBeLessThan(300);
    expect((await room.closed(2000)).code).toBe(4001);
    expect((await notes.closed(2000)).code).toBe(4001);
    // The partner sees Ada leave the room and keeps a working socket.
    await graceRoom.next('in_chat_users_update', (f) => f.user_ids.length === 1);
    expect(graceRoom.isOpen).toBe(true);
    await say(graceRoom, 'anyone there?');
    await graceRoom.close();
  });

  it('password reset closes every socket of the account with 4001', async () => {
    const [ada] = await people(app(), 'Ada');
    const { client } = await openNotifications(app(), ada.token);
    await app().post('/api/users/password/reset/request/', { email: ada.payload.email });
    const code = await app().codeFor(ada.payload.email, { subject: /reset/i });
    const res = await app().post('/api/users/password/reset/confirm/', {
      email: ada.payload.email,
      verification_code: code,
      new_password: 'another-fine-password-9',
    });
    expect(res.status, res.text).toBe(200);
    expect((await client.closed(2000)).code).toBe(4001);
  });
});
