import { POLL_TEXT, pollLine } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { adaAndGraceInRoom, history, myChats, people, say } from '../chats/chat-helpers';
import { groupOf, newChannel, watchRoom } from '../groups/group-helpers';
import { useTestApp } from '../helpers/test-app';
import { joinRoom } from '../helpers/ws-client';
import { ask, closePoll, counts, lunch, pollUpdate, refused, vote } from './poll-helpers';

// Polls: a chat_message frame carrying `poll`, PUT …/messages/{id}/votes/ and POST …/close/. The room hears
// poll_updated, each socket with its own reader's choices in `my_votes`.
const app = useTestApp();

describe('asking a poll', () => {
  it('sends a poll with an empty body, shown to both, in the history and the chat list', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const message = await ask(adaRoom, { question: '  Lunch?  ', options: [' Pizza', 'Soup '] });
    expect(message.body).toBe('');
    expect(message.poll).toEqual({
      question: 'Lunch?',
      options: [
        { text: 'Pizza', votes: 0, voters: [] },
        { text: 'Soup', votes: 0, voters: [] },
      ],
      multiple: false,
      anonymous: false,
      my_votes: [],
      closed: false,
      voter_count: 0,
    });
    const seen = await graceRoom.next('chat_message', (f) => f.message.id === message.id);
    expect(seen.message.poll).toEqual(message.poll);
    const [shown] = (await history(t, grace.token, chatId)).filter((m) => m.id === message.id);
    expect(shown.poll).toEqual(message.poll);
    const [listed] = await myChats(t, ada.token);
    expect(listed.last_message).toBe(pollLine('Lunch?'));
    // Any other message carries no poll.
    expect((await say(adaRoom, 'plain')).poll).toBeNull();
    // A reply quotes the question, live and in the history.
    graceRoom.send({ type: 'chat_message', body: 'Soup, surely', client_id: 'q-1', reply_to: message.id });
    const reply = await adaRoom.next('chat_message', (f) => f.client_id === 'q-1');
    expect(reply.message.reply_to).toMatchObject({
      id: message.id,
      body: pollLine('Lunch?'),
      sender_name: 'Ada Tester',
    });
    const [quoted] = (await history(t, ada.token, chatId)).filter((m) => m.id === reply.message.id);
    expect(quoted.reply_to.body).toBe(pollLine('Lunch?'));
  });

  it('refuses a bad poll with an error frame and stores nothing', async () => {
    const t = app();
    const { ada, chatId, adaRoom } = await adaAndGraceInRoom(t);
    const bad = [
      { ...lunch, question: '' },
      { ...lunch, question: 'x'.repeat(301) },
      { ...lunch, options: ['Only one'] },
      { ...lunch, options: Array.from({ length: 11 }, (_, i) => `Option ${i}`) },
      { ...lunch, options: ['Same', 'same'] },
      { ...lunch, options: ['Fine', ' '] },
      { ...lunch, options: ['Fine', 'y'.repeat(101)] },
      { ...lunch, multiple: 'yes' },
      { question: 'No flags', options: ['a', 'b'] },
    ];
    for (const poll of bad) expect(await refused(adaRoom, { poll })).toBeTruthy();
    expect(await history(t, ada.token, chatId)).toEqual([]);
    expect(await t.ctx.db.selectFrom('polls').selectAll().execute()).toEqual([]);
  });

  it('works in a thread, and a forwarded poll is asked afresh', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom } = await adaAndGraceInRoom(t);
    const root = await say(adaRoom, 'Plans');
    const inThread = await ask(adaRoom, {}, { thread_root: root.id });
    expect(inThread.thread_root).toBe(root.id);
    expect((await vote(t, grace.token, chatId, inThread.id, [2])).status).toBe(200);
    const page = await t.get(`/api/chats/${chatId}/messages/${root.id}/thread/`, ada.token);
    expect(page.status, page.text).toBe(200);
    const [reply] = page.body.results;
    expect(reply.poll).toMatchObject({ options: [{ votes: 0 }, { votes: 0 }, { votes: 1 }], my_votes: [] });

    const [other] = await people(t, 'Otto');
    const otherChat = (await t.get(`/api/chats/start/${other.user.username}/`, ada.token)).body.chat_id;
    const fwd = await t.post(
      `/api/chats/${chatId}/messages/${inThread.id}/forward/`,
      { to_chat_ids: [otherChat] },
      ada.token,
    );
    expect(fwd.status, fwd.text).toBe(200);
    const [copy] = (await history(t, other.token, otherChat)).filter((m) => m.poll);
    expect(copy.poll).toMatchObject({ question: lunch.question, voter_count: 0, my_votes: [] });
    expect(copy.forwarded).toBe(true);
  });
});

describe('voting', () => {
  it('votes, changes, retracts; each room socket is told its own choices', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const poll = await ask(adaRoom);

    const voted = await vote(t, grace.token, chatId, poll.id, [1]);
    expect(voted.status, voted.text).toBe(200);
    expect(voted.body).toMatchObject({ my_votes: [1], voter_count: 1 });
    expect(voted.body.options[1]).toEqual({ text: 'Soup', votes: 1, voters: [grace.user.id] });
    expect((await pollUpdate(graceRoom, poll.id)).poll.my_votes).toEqual([1]);
    const adaSees = await pollUpdate(adaRoom, poll.id);
    expect(adaSees.poll.my_votes).toEqual([]);
    expect(counts(adaSees.poll)).toEqual([0, 1, 0]);

    const changed = await vote(t, grace.token, chatId, poll.id, [0]);
    expect(changed.body).toMatchObject({ my_votes: [0], voter_count: 1 });
    expect(counts((await pollUpdate(adaRoom, poll.id)).poll)).toEqual([1, 0, 0]);
    expect((await pollUpdate(graceRoom, poll.id)).poll.my_votes).toEqual([0]);
    expect((await vote(t, ada.token, chatId, poll.id, [0])).body).toMatchObject({
      my_votes: [0],
      voter_count: 2,
    });
    expect((await pollUpdate(adaRoom, poll.id)).poll.my_votes).toEqual([0]);
    expect((await pollUpdate(graceRoom, poll.id)).poll).toMatchObject({ my_votes: [0], voter_count: 2 });

    // The history is each reader's own.
    const adaPage = (await history(t, ada.token, chatId)).find((m) => m.id === poll.id);
    expect(adaPage.poll.options[0].voters).toEqual([grace.user.id, ada.user.id]);
    expect(adaPage.poll.my_votes).toEqual([0]);

    const retracted = await vote(t, grace.token, chatId, poll.id, []);
    expect(retracted.body).toMatchObject({ my_votes: [], voter_count: 1 });
    const afterRetract = await pollUpdate(graceRoom, poll.id);
    expect(afterRetract.poll.my_votes).toEqual([]);
    expect(afterRetract.poll.options[0].voters).toEqual([ada.user.id]);

    // The same choices again change nothing and tell nobody.
    expect((await vote(t, ada.token, chatId, poll.id, [0])).status).toBe(200);
    await say(adaRoom, 'marker');
    await graceRoom.next('chat_message', (f) => f.message.body === 'marker');
    expect(graceRoom.received('poll_updated')).toHaveLength(4);
  });

  it('takes several answers in a poll that allows it, and counts each voter once', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan],
    } = await groupOf(t, 'Team', 'Ada', 'Grace', 'Alan');
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const poll = await ask(adaRoom, { multiple: true });
    expect((await vote(t, grace.token, chatId, poll.id, [2, 0])).body).toMatchObject({ my_votes: [0, 2] });
    const both = await vote(t, alan.token, chatId, poll.id, [0, 1, 2]);
    expect(both.body).toMatchObject({ my_votes: [0, 1, 2], voter_count: 2 });
    expect(counts(both.body)).toEqual([2, 1, 2]);
    const seen = await pollUpdate(adaRoom, poll.id, (p) => p.voter_count === 2);
    expect(seen.poll.my_votes).toEqual([]);
    expect(counts(seen.poll)).toEqual([2, 1, 2]);
  });

  it('refuses bad choices, closed polls, outsiders, watchers and what is no poll', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom } = await adaAndGraceInRoom(t);
    const [eve] = await people(t, 'Eve');
    const poll = await ask(adaRoom);
    const plain = await say(adaRoom, 'No poll here');

    for (const [options, detail] of [
      [[0, 1], POLL_TEXT.oneChoice],
      [[3], POLL_TEXT.badOption],
      [[1, 1], POLL_TEXT.sameOptionTwice],
    ] as const) {
      const res = await vote(t, grace.token, chatId, poll.id, options);
      expect(res.status, res.text).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
    for (const options of [[-1], [10], ['a'], 'all', [0.5]]) {
      const res = await vote(t, grace.token, chatId, poll.id, options);
      expect(res.status, `${JSON.stringify(options)}: ${res.text}`).toBe(400);
    }
    for (const id of [plain.id, 'abc', 0, 987654321]) {
      const res = await vote(t, grace.token, chatId, id, [0]);
      expect(res.status, `${id}: ${res.text}`).toBe(404);
      expect((await closePoll(t, ada.token, chatId, id)).status).toBe(404);
    }
    // Outsiders learn nothing: 404, as for no poll at all.
    expect((await vote(t, eve.token, chatId, poll.id, [0])).status).toBe(404);
    expect((await closePoll(t, eve.token, chatId, poll.id)).status).toBe(404);
    expect((await t.request('PUT', `/api/chats/${chatId}/messages/${poll.id}/votes/`)).status).toBe(401);

    // Only its author closes it; then nobody votes.
    const notYours = await closePoll(t, grace.token, chatId, poll.id);
    expect(notYours.status).toBe(403);
    expect(notYours.body.detail).toBe(POLL_TEXT.notYours);
    expect((await vote(t, grace.token, chatId, poll.id, [1])).status).toBe(200);
    const closed = await closePoll(t, ada.token, chatId, poll.id);
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body).toMatchObject({ closed: true, my_votes: [], voter_count: 1 });
    expect((await pollUpdate(adaRoom, poll.id, (p) => p.closed)).poll.my_votes).toEqual([]);
    const late = await vote(t, grace.token, chatId, poll.id, [0]);
    expect(late.status).toBe(409);
    expect(late.body.detail).toBe(POLL_TEXT.closed);
    expect((await vote(t, grace.token, chatId, poll.id, [])).status).toBe(409);
    expect((await closePoll(t, ada.token, chatId, poll.id)).body.closed).toBe(true);
    expect((await history(t, grace.token, chatId)).find((m) => m.id === poll.id).poll).toMatchObject({
      closed: true,
      my_votes: [1],
    });

    // A public channel's watcher reads the poll but may not vote.
    const channel = await newChannel(t, ada.token, 'Open plans');
    const channelRoom = await joinRoom(t, ada.token, channel);
    const open = await ask(channelRoom);
    await watchRoom(t, eve.token, channel);
    const watcher = await vote(t, eve.token, channel, open.id, [0]);
    expect(watcher.status).toBe(403);
    expect(watcher.body.detail).toBe(POLL_TEXT.joinToVote);
    expect((await history(t, eve.token, channel)).find((m) => m.id === open.id).poll.my_votes).toEqual([]);
    // A poll of another chat is not this chat's.
    expect((await vote(t, grace.token, chatId, open.id, [0])).status).toBe(404);
  });

  it('a message deleted for everyone takes its poll and votes with it', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const poll = await ask(adaRoom);
    expect((await vote(t, grace.token, chatId, poll.id, [0])).status).toBe(200);
    expect((await t.del(`/api/chats/${chatId}/messages/${poll.id}/`, ada.token)).status).toBe(204);
    await graceRoom.next('message_deleted', (f) => f.message_id === poll.id);
    const shown = (await history(t, grace.token, chatId)).find((m) => m.id === poll.id);
    expect(shown).toMatchObject({ is_deleted: true, poll: null });
    expect((await vote(t, grace.token, chatId, poll.id, [1])).status).toBe(404);
    expect((await closePoll(t, ada.token, chatId, poll.id)).status).toBe(404);
    expect(await t.ctx.db.selectFrom('polls').selectAll().execute()).toEqual([]);
    expect(await t.ctx.db.selectFrom('poll_votes').selectAll().execute()).toEqual([]);
    const [listed] = await myChats(t, ada.token);
    expect(listed.last_message).not.toContain('📊');
  });
});

describe('polls and deletions', () => {
  it('a deleted account takes its votes, and its polls with its messages; a deleted chat its polls', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan],
    } = await groupOf(t, 'Team', 'Ada', 'Grace', 'Alan');
    const graceRoom = await joinRoom(t, grace.token, chatId);
    const asked = await ask(graceRoom);
    expect((await vote(t, alan.token, chatId, asked.id, [0])).status).toBe(200);
    expect((await vote(t, ada.token, chatId, asked.id, [1])).status).toBe(200);
    expect((await t.deleteAccount(alan.token)).status).toBeLessThan(300);
    const shown = (await history(t, ada.token, chatId)).find((m) => m.id === asked.id);
    expect(shown.poll).toMatchObject({ voter_count: 1, my_votes: [1] });
    expect(counts(shown.poll)).toEqual([0, 1, 0]);

    expect((await t.deleteAccount(grace.token)).status).toBeLessThan(300);
    expect(await t.ctx.db.selectFrom('polls').selectAll().execute()).toEqual([]);
    expect(await t.ctx.db.selectFrom('poll_votes').selectAll().execute()).toEqual([]);

    const adaRoom = await joinRoom(t, ada.token, chatId);
    const again = await ask(adaRoom);
    expect((await vote(t, ada.token, chatId, again.id, [2])).status).toBe(200);
    expect((await t.del(`/api/chats/${chatId}/`, ada.token)).status).toBeLessThan(300);
    expect(await t.ctx.db.selectFrom('polls').selectAll().execute()).toEqual([]);
    expect(await t.ctx.db.selectFrom('poll_votes').selectAll().execute()).toEqual([]);
  });
});
