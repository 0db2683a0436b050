import { describe, expect, it } from 'vitest';
import { detail, history, myChats, people, say, seedMessages, startChat } from '../chats/chat-helpers';
import { useTestApp } from '../helpers/test-app';
import { joinRoom, openNotifications } from '../helpers/ws-client';
import { threeWithABlock } from '../safety/block-helpers';

// What a person's screens show of others live: presence frames on the notification socket (to the people who
// share a chat, never across a block or for someone who hides their status), and a blocker's chat list,
// unread counts and notices, where the blocked person's messages never show.
const app = useTestApp();

describe('presence frames', () => {
  it('tell the people who share a chat when someone comes online and goes offline, and nobody else', async () => {
    const t = app();
    const [ann, ben, cal] = await people(t, 'Ann', 'Ben', 'Cal');
    await startChat(t, ann.token, ben.user.username);
    const annNotes = (await openNotifications(t, ann.token)).client;
    const calNotes = (await openNotifications(t, cal.token)).client;

    // Ben signs in: Ann's socket hears it at once, with his last-seen time as it was (never seen: null).
    const benNotes = (await openNotifications(t, ben.token)).client;
    expect(await annNotes.next('presence', (f) => f.user_id === ben.user.id)).toEqual({
      type: 'presence',
      user_id: ben.user.id,
      is_online: true,
      last_seen: null,
    });
    // A second socket of his changes nothing for the others.
    const benRoom = await joinRoom(t, ben.token, (await myChats(t, ben.token))[0].chat_id);
    await benRoom.close();
    // Ben's last socket closes: offline, with the last-seen time just written.
    await benNotes.close();
    const offline = await annNotes.next('presence', (f) => f.user_id === ben.user.id && !f.is_online);
    expect(offline.last_seen).toEqual(expect.any(String));
    expect(Date.now() - Date.parse(offline.last_seen)).toBeLessThan(60_000);
    const benSeen = (await detail(t, ann.token, (await myChats(t, ann.token))[0].chat_id)).members[0];
    expect(benSeen).toMatchObject({ id: ben.user.id, is_online: false, last_seen: offline.last_seen });
    expect(annNotes.received('presence', (f) => f.user_id === ben.user.id).map((f) => f.is_online)).toEqual([
      true,
      false,
    ]);
    // Cal shares no chat with Ben: he heard nothing of him.
    expect(calNotes.received('presence')).toEqual([]);
    await Promise.all([annNotes.close(), calNotes.close()]);
  });

  it('reach group members too, and never cross a block or show someone who hides their status', async () => {
    const t = app();
    const { ada, grace, alan, groupId } = await threeWithABlock(t);
    const graceNotes = (await openNotifications(t, grace.token)).client;
    const alanNotes = (await openNotifications(t, alan.token)).client;

    const adaNotes = (await openNotifications(t, ada.token)).client;
    await alanNotes.next('presence', (f) => f.user_id === ada.user.id && f.is_online);
    expect(adaNotes.received('presence', (f) => f.user_id === grace.user.id)).toEqual([]);
    await adaNotes.close();
    await alanNotes.next('presence', (f) => f.user_id === ada.user.id && !f.is_online);

    // Alan (whom Grace heard come online) hides his online status: Grace sees him offline at once, then hears
    // nothing of him any more, not even that he went offline.
    await graceNotes.next('presence', (f) => f.user_id === alan.user.id && f.is_online);
    expect((await t.put('/api/users/profile/settings/', { online_status: false }, alan.token)).status).toBe(
      200,
    );
    const alanRoom = await joinRoom(t, alan.token, groupId);
    await alanRoom.close();
    await alanNotes.close();
    // Ada back: Alan hears it in the same publication that would have reached Grace.
    const alanBack = (await openNotifications(t, alan.token)).client;
    const adaAgain = (await openNotifications(t, ada.token)).client;
    await alanBack.next('presence', (f) => f.user_id === ada.user.id && f.is_online);
    expect(graceNotes.received('presence', (f) => f.user_id === ada.user.id)).toEqual([]);
    // Of Alan, Grace heard him come online and, once, the switch turned off (offline, never seen).
    expect(graceNotes.received('presence', (f) => f.user_id === alan.user.id)).toEqual([
      expect.objectContaining({ is_online: true }),
      { type: 'presence', user_id: alan.user.id, is_online: false, last_seen: null },
    ]);
    await Promise.all([graceNotes.close(), adaAgain.close(), alanBack.close()]);
  });

  it("follow the Online Status switch at once, as the person's contacts would see them after a reload", async () => {
    const t = app();
    const [ann, ben, cal] = await people(t, 'Ann', 'Ben', 'Cal');
    await startChat(t, ann.token, ben.user.username);
    const annNotes = (await openNotifications(t, ann.token)).client;
    const calNotes = (await openNotifications(t, cal.token)).client;
    const benNotes = (await openNotifications(t, ben.token)).client;
    await annNotes.next('presence', (f) => f.user_id === ben.user.id && f.is_online);
    const setOnlineStatus = async (on: boolean) =>
      expect((await t.put('/api/users/profile/settings/', { online_status: on }, ben.token)).status).toBe(
        200,
      );

    // Ben turns his Online Status off while online: Ann sees him offline, never seen, as a reload would.
    await setOnlineStatus(false);
    expect(await annNotes.next('presence', (f) => f.user_id === ben.user.id && !f.is_online)).toEqual({
      type: 'presence',
      user_id: ben.user.id,
      is_online: false,
      last_seen: null,
    });
    const chatId = (await myChats(t, ann.token))[0].chat_id;
    expect((await detail(t, ann.token, chatId)).members[0]).toMatchObject({
      is_online: false,
      last_seen: null,
    });
    // Off again changes nothing and tells nothing; on again shows him online at once.
    await setOnlineStatus(false);
    await setOnlineStatus(true);
    await annNotes.next('presence', (f) => f.user_id === ben.user.id && f.is_online);
    expect((await detail(t, ann.token, chatId)).members[0]).toMatchObject({ is_online: true });
    await setOnlineStatus(true);
    await benNotes.close();
    await annNotes.next('presence', (f) => f.user_id === ben.user.id && !f.is_online && f.last_seen !== null);
    expect(annNotes.received('presence', (f) => f.user_id === ben.user.id).map((f) => f.is_online)).toEqual([
      true,
      false,
      true,
      false,
    ]);
    // Cal shares no chat with Ben: none of it reached him.
    expect(calNotes.received('presence')).toEqual([]);
    await Promise.all([annNotes.close(), calNotes.close()]);
  });
});

describe("a blocked person's messages on the blocker's side", () => {
  it('are never the chat list preview nor counted unread, in the list, the detail or the total', async () => {
    const t = app();
    const { ada, grace, alan, groupId } = await threeWithABlock(t);
    const [hi] = await seedMessages(t, alan.user.id, groupId, ['hi all']);
    await seedMessages(t, ada.user.id, groupId, ['a secret from Ada', 'and another']);

    const graceItem = (await myChats(t, grace.token)).find((c) => c.chat_id === groupId);
    expect(graceItem).toMatchObject({ last_message: 'hi all', unread_count: 1 });
    const graceDetail = await detail(t, grace.token, groupId);
    expect(graceDetail).toMatchObject({ unread_count: 1, first_unread_id: hi });
    expect((await openNotifications(t, grace.token)).count).toBe(1);
    // Alan, who blocked nobody, sees them all; Ada (the blocked one) sees Alan's as ever.
    expect((await myChats(t, alan.token)).find((c) => c.chat_id === groupId)).toMatchObject({
      last_message: 'and another',
      unread_count: 2,
    });
    expect((await myChats(t, ada.token)).find((c) => c.chat_id === groupId)).toMatchObject({
      last_message: 'and another',
      unread_count: 1,
    });
  });

  it("keep a blocker's live count and notices free of them while the blocked person writes", async () => {
    const t = app();
    const { ada, grace, alan, groupId } = await threeWithABlock(t);
    const { client: graceNotes, count } = await openNotifications(t, grace.token);
    expect(count).toBe(0);
    const adaRoom = await joinRoom(t, ada.token, groupId);
    const alanRoom = await joinRoom(t, alan.token, groupId);
    await say(adaRoom, 'do not show this');
    await say(adaRoom, 'nor this');
    const fromAlan = await say(alanRoom, 'visible');
    await graceNotes.next('new_message', (f) => f.message.message_id === fromAlan.id);
    expect((await graceNotes.next('notification_count', (f) => f.count === 1)).count).toBe(1);
    expect(graceNotes.received('new_message')).toHaveLength(1);
    expect(graceNotes.received('notification_count').map((f) => f.count)).not.toContain(2);
    expect(JSON.stringify(graceNotes.frames)).not.toMatch(/do not show|nor this/);
    await Promise.all([graceNotes.close(), adaRoom.close(), alanRoom.close()]);
  });

  it("are never a blocker's search results, and a reply quoting them names its sender so it can be folded", async () => {
    const t = app();
    const { ada, grace, alan, groupId } = await threeWithABlock(t);
    const [secret] = await seedMessages(t, ada.user.id, groupId, ['a secret lunch plan']);
    await seedMessages(t, alan.user.id, groupId, ['lunch at noon']);
    const found = async (token: string) =>
      (await t.get('/api/search/messages/?q=lunch', token)).body.results.map(
        (r: { message: { body: string } }) => r.message.body,
      );
    expect(await found(grace.token)).toEqual(['lunch at noon']);
    expect(await found(alan.token)).toEqual(['lunch at noon', 'a secret lunch plan']);

    // Alan answers Ada: the quote carries who said it, live and in the history Grace reads.
    const alanRoom = await joinRoom(t, alan.token, groupId);
    alanRoom.send({ type: 'chat_message', body: 'sure', client_id: 'reply-1', reply_to: secret });
    const live = await alanRoom.next('chat_message', (f) => f.client_id === 'reply-1');
    expect(live.message.reply_to).toMatchObject({ id: secret, sender_id: ada.user.id });
    const reply = (await history(t, grace.token, groupId)).find((m) => m.id === live.message.id);
    expect(reply?.reply_to).toMatchObject({ id: secret, sender_id: ada.user.id });
    await alanRoom.close();
  });
});
