import { describe, expect, it } from 'vitest';
import type { SignedUp, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { eventually, joinRoom, openNotifications } from '../helpers/ws-client';
import {
  addMember,
  createGroup,
  detail,
  myChats,
  people,
  say,
  seedMessages,
  startChat,
} from './chat-helpers';

// WS /ws/notifications/ (SPEC §3 Notification, §7) and presence (DESIGN §1 online_status,
// online while any socket is open, last_seen written when the last one closes).
const app = useTestApp();

describe('notification socket', () => {
  it('takes a delivery acknowledgement, so the sender sees Delivered before the chat is opened', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const graceNotes = (await openNotifications(app(), grace.token)).client;
    const adaRoom = await joinRoom(app(), ada.token, chatId);
    const sent = await say(adaRoom, 'are you there?');
    const note = await graceNotes.next('new_message');
    graceNotes.send({
      type: 'messages_delivered',
      chatroom_id: chatId,
      message_ids: [note.message.message_id],
    });
    expect((await adaRoom.next('messages_delivered')).message_ids).toEqual([sent.id]);
    // Garbage gets an error frame and the socket stays.
    graceNotes.send('not json');
    expect((await graceNotes.next('error')).message).toBe('Invalid message format');
    await Promise.all([graceNotes.close(), adaRoom.close()]);
  });

  it('sends the total unread count on connect', async () => {
    const [ada, grace, alan] = await people(app(), 'Ada', 'Grace', 'Alan');
    const privateId = await startChat(app(), grace.token, ada.user.username);
    const groupId = await createGroup(app(), ada.token, 'Hut 8');
    await addMember(app(), groupId, alan.user.id);
    await seedMessages(app(), ada.user.id, groupId, ['mine do not count']);
    await seedMessages(app(), grace.user.id, privateId, ['one', 'two']);
    await seedMessages(app(), alan.user.id, groupId, ['three']);

    const { client, count } = await openNotifications(app(), ada.token);
    expect(count).toBe(3);
    const none = await openNotifications(app(), grace.token);
    expect(none.count).toBe(0);
    await Promise.all([client.close(), none.client.close()]);
  });

  it('sends new_message to members not in the room, with a rising count that falls after reading', async () => {
    const [ada, grace, alan] = await people(app(), 'Ada', 'Grace', 'Alan');
    const groupId = await createGroup(app(), ada.token, 'Hut 6');
    await addMember(app(), groupId, grace.user.id);
    await addMember(app(), groupId, alan.user.id);

    const adaNotes = (await openNotifications(app(), ada.token)).client;
    const alanNotes = (await openNotifications(app(), alan.token)).client;
    const graceNotes = (await openNotifications(app(), grace.token)).client;
    const alanRoom = await joinRoom(app(), alan.token, groupId);
    const graceRoom = await joinRoom(app(), grace.token, groupId);

    // Ada is away: she is told, with a 40-character preview.
    const long = 'The quick brown fox jumps over the lazy dog, twice over.';
    const m1 = await say(graceRoom, long);
    const note = await adaNotes.next('new_message');
    expect(note.message).toMatchObject({
      sender: 'Grace Tester',
      sender_avatar: null,
      message: `${long.slice(0, 40)}...`,
      chatroom_id: groupId,
    });
    expect(note.message.message).toHaveLength(43);
    expect(await adaNotes.next('notification_count')).toEqual({ type: 'notification_count', count: 1 });

    const m2 = await say(graceRoom, 'ok');
    expect((await adaNotes.next('new_message')).message.message).toBe('ok');
    expect((await adaNotes.next('notification_count')).count).toBe(2);

    // Alan leaves the room; from now on he is told too, and only from now on.
    await alanRoom.close();
    await graceRoom.next('in_chat_count', (f) => f.count === 1);
    const m3 = await say(graceRoom, 'third');
    expect((await alanNotes.next('new_message')).message).toMatchObject({
      message: 'third',
      chatroom_id: groupId,
    });
    expect((await alanNotes.next('notification_count')).count).toBe(3);
    expect(alanNotes.received('new_message').map((f) => f.message.message)).toEqual(['third']);
    expect((await adaNotes.next('new_message')).message.message).toBe('third');
    expect((await adaNotes.next('notification_count')).count).toBe(3);

    // Ada reads: her count falls to 0.
    const adaRoom = await joinRoom(app(), ada.token, groupId);
    adaRoom.send({ type: 'read_messages', message_ids: [m1.id, m2.id, m3.id] });
    expect(await adaNotes.next('notification_count')).toEqual({ type: 'notification_count', count: 0 });
    expect((await myChats(app(), ada.token))[0].unread_count).toBe(0);

    // The sender is never told about her own messages; she is told once away and someone else writes.
    await graceRoom.close();
    await adaRoom.next('in_chat_count', (f) => f.count === 1);
    await say(adaRoom, 'bye');
    expect((await graceNotes.next('new_message')).message).toMatchObject({
      sender: 'Ada Tester',
      message: 'bye',
    });
    expect(graceNotes.received('new_message')).toHaveLength(1);
    expect(adaNotes.received('new_message').map((f) => f.message.message)).toEqual([
      `${long.slice(0, 40)}...`,
      'ok',
      'third',
    ]);

    await Promise.all([adaNotes.close(), alanNotes.close(), graceNotes.close(), adaRoom.close()]);
  });

  it('cuts previews only past 40 characters', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const notes = (await openNotifications(app(), ada.token)).client;
    const room = await joinRoom(app(), grace.token, chatId);
    const forty = 'x'.repeat(40);
    await say(room, forty);
    expect((await notes.next('new_message')).message).toMatchObject({ message: forty, chatroom_id: chatId });
    await say(room, `${forty}y`);
    expect((await notes.next('new_message')).message.message).toBe(`${forty}...`);
    await Promise.all([notes.close(), room.close()]);
  });
});

/** Ada as Grace sees her: in the chat detail, the chat list, the profile list and the public profile. */
async function adaSeenByGrace(t: TestApp, ada: SignedUp, grace: SignedUp, chatId: string) {
  const member = (await detail(t, grace.token, chatId)).members.find(
    (m: { id: number }) => m.id === ada.user.id,
  );
  const item = (await myChats(t, grace.token)).find((c) => c.chat_id === chatId);
  const listed = (await t.get('/api/profiles')).body.find((p: { id: number }) => p.id === ada.user.id);
  const profile = (await t.get(`/api/users/@${ada.user.username}/`, grace.token)).body;
  return {
    detail: { is_online: member.is_online, last_seen: member.last_seen },
    list: item.is_online,
    profiles: listed.is_online,
    profile: { is_online: profile.is_online, last_seen: profile.last_seen },
  };
}

const lastSeenInDb = async (t: TestApp, userId: number) =>
  (await t.ctx.db.selectFrom('users').select('last_seen').where('id', '=', userId).executeTakeFirstOrThrow())
    .last_seen;

describe('presence', () => {
  it('is online while any socket is open; last_seen is written when the last one closes', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), grace.token, ada.user.username);
    expect(await adaSeenByGrace(app(), ada, grace, chatId)).toEqual({
      detail: { is_online: false, last_seen: null },
      list: false,
      profiles: false,
      profile: { is_online: false, last_seen: null },
    });

    const notes = (await openNotifications(app(), ada.token)).client;
    const room = await joinRoom(app(), ada.token, chatId);
    expect(await adaSeenByGrace(app(), ada, grace, chatId)).toEqual({
      detail: { is_online: true, last_seen: null },
      list: true,
      profiles: true,
      profile: { is_online: true, last_seen: null },
    });

    await notes.close();
    expect((await adaSeenByGrace(app(), ada, grace, chatId)).detail).toEqual({
      is_online: true,
      last_seen: null,
    });

    const before = new Date().toISOString();
    await room.close();
    const seen = await eventually(async () => {
      const s = await adaSeenByGrace(app(), ada, grace, chatId);
      return !s.detail.is_online && s.detail.last_seen ? s : undefined;
    }, 'Ada offline with a last_seen');
    expect(seen.list).toBe(false);
    expect(seen.profiles).toBe(false);
    expect(seen.profile).toEqual({ is_online: false, last_seen: seen.detail.last_seen });
    expect(seen.detail.last_seen >= before).toBe(true);
    expect(seen.detail.last_seen <= new Date().toISOString()).toBe(true);
    expect(await lastSeenInDb(app(), ada.user.id)).toBe(seen.detail.last_seen);
  });

  it('shows a user with online_status off as offline with no last_seen to others', async () => {
    const [ada, grace, alan] = await people(app(), 'Ada', 'Grace', 'Alan');
    const chatId = await startChat(app(), grace.token, ada.user.username);
    // A last_seen exists from an earlier visit.
    await (await openNotifications(app(), ada.token)).client.close();
    await eventually(async () => (await lastSeenInDb(app(), ada.user.id)) ?? undefined, 'a stored last_seen');

    const off = await app().put('/api/users/profile/settings/', { online_status: false }, ada.token);
    expect(off.status, off.text).toBe(200);
    const adaNotes = (await openNotifications(app(), ada.token)).client;
    const adaRoom = await joinRoom(app(), ada.token, chatId);
    // Alan, with online_status on, is shown online at the same moment.
    const alanNotes = (await openNotifications(app(), alan.token)).client;
    const profiles = (await app().get('/api/profiles')).body;
    expect(profiles.find((p: { id: number }) => p.id === alan.user.id).is_online).toBe(true);

    expect(await adaSeenByGrace(app(), ada, grace, chatId)).toEqual({
      detail: { is_online: false, last_seen: null },
      list: false,
      profiles: false,
      profile: { is_online: false, last_seen: null },
    });
    await Promise.all([adaNotes.close(), adaRoom.close(), alanNotes.close()]);
  });
});
