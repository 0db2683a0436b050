import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { fetchPath } from '../attachments/attachment-helpers';
import { newClientId, say } from '../chats/chat-helpers';
import { groupOf } from '../groups/group-helpers';
import type { Json } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { joinRoom, openNotifications, type WsClient } from '../helpers/ws-client';
import { ask, closePoll, pollUpdate, vote } from './poll-helpers';

// An anonymous poll never says who voted: not in any answer (votes, close, history, thread page, search, pins,
// saved, export) nor in any frame (chat_message, poll_updated, message_updated, notifications). Every document
// a reader receives is searched for a `voters` key and for any poll shaped otherwise than counts and the
// reader's own choices.
const app = useTestApp();

const POLL_KEYS = ['anonymous', 'closed', 'multiple', 'my_votes', 'options', 'question', 'voter_count'];

/** Every poll object inside a JSON document, wherever it sits. */
function pollsIn(doc: Json, found: Json[] = []): Json[] {
  if (Array.isArray(doc)) for (const d of doc) pollsIn(d, found);
  else if (doc && typeof doc === 'object') {
    for (const [key, value] of Object.entries(doc)) {
      if (key === 'poll' && value) found.push(value);
      else pollsIn(value, found);
    }
  }
  return found;
}

describe('an anonymous poll', () => {
  it('tells nobody who voted, in any answer or frame', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace, alan],
    } = await groupOf(t, 'Ballot', 'Ada', 'Grace', 'Alan');
    const rooms: Record<string, WsClient> = {};
    for (const p of [ada, grace, alan]) rooms[p.user.username] = await joinRoom(t, p.token, chatId);
    const alanAway = await openNotifications(t, alan.token);
    const adaRoom = rooms[ada.user.username] as WsClient;
    const graceRoom = rooms[grace.user.username] as WsClient;

    // Each document received, with whose it is: their own choices are all they may see.
    const received: { reader: number; doc: Json }[] = [];
    const answer = (reader: number, res: { status: number; text: string; body: Json }) => {
      expect(res.status, res.text).toBeLessThan(300);
      received.push({ reader, doc: res.body });
      return res.body;
    };

    const ballot = await ask(adaRoom, { anonymous: true }, { body: 'Secret ballot about lunch' });
    const root = await say(adaRoom, 'Thread for a second ballot');
    const inThread = await ask(adaRoom, { anonymous: true, multiple: true }, { thread_root: root.id });

    answer(grace.user.id, await vote(t, grace.token, chatId, ballot.id, [1]));
    answer(alan.user.id, await vote(t, alan.token, chatId, ballot.id, [0]));
    answer(alan.user.id, await vote(t, alan.token, chatId, ballot.id, [1]));
    answer(grace.user.id, await vote(t, grace.token, chatId, inThread.id, [0, 2]));
    answer(alan.user.id, await vote(t, alan.token, chatId, inThread.id, [2]));
    // An edit of its text and a pin go out as frames of the whole message too.
    answer(
      ada.user.id,
      await t.request('PATCH', `/api/chats/${chatId}/messages/${ballot.id}/`, {
        token: ada.token,
        json: { body: 'Secret ballot about lunch (edited)' },
      }),
    );
    answer(ada.user.id, await t.put(`/api/chats/${chatId}/pins/${ballot.id}/`, {}, ada.token));
    answer(grace.user.id, await t.put(`/api/saved/${ballot.id}/`, {}, grace.token));
    answer(ada.user.id, await closePoll(t, ada.token, chatId, ballot.id));
    await pollUpdate(graceRoom, ballot.id, (p) => p.closed);
    await t.ctx.lifecycle.settled();

    for (const p of [ada, grace, alan]) {
      const me = p.user.id;
      answer(me, await t.get(`/api/chats/${chatId}/messages/`, p.token));
      answer(me, await t.get(`/api/chats/${chatId}/messages/?after=0`, p.token));
      answer(me, await t.get(`/api/chats/${chatId}/messages/${root.id}/thread/`, p.token));
      answer(me, await t.get(`/api/search/messages/?q=ballot`, p.token));
      answer(me, await t.get(`/api/chats/${chatId}/pins/`, p.token));
      answer(me, await t.get('/api/saved/', p.token));
      answer(me, await t.get('/api/chats/my/', p.token));
    }
    const search = received.find((r) => r.doc?.results?.some?.((x: Json) => x.message?.id === ballot.id));
    expect(search, 'search finds the ballot').toBeTruthy();

    const asked = await t.post('/api/users/export/', {}, grace.token);
    expect(asked.status, asked.text).toBe(202);
    await t.ctx.dataExports.settled();
    const zip = await fetchPath(t, `/api/users/export/${asked.body.id}/`, grace.token);
    expect(zip.status).toBe(200);
    const exported = unzipSync(new Uint8Array(zip.bytes))[`chats/${chatId}.json`];
    expect(exported).toBeTruthy();
    received.push({ reader: grace.user.id, doc: JSON.parse(Buffer.from(exported as Uint8Array).toString()) });

    // A marker: every frame before it has reached every room.
    const marker = newClientId('marker');
    adaRoom.send({ type: 'chat_message', body: 'marker', client_id: marker });
    for (const p of [ada, grace, alan]) {
      const room = rooms[p.user.username] as WsClient;
      await room.next('chat_message', (f) => f.client_id === marker);
      for (const frame of room.frames) received.push({ reader: p.user.id, doc: frame });
    }
    for (const frame of alanAway.client.frames) received.push({ reader: alan.user.id, doc: frame });

    const own: Record<number, number[][]> = {
      [ada.user.id]: [[]],
      [grace.user.id]: [[], [1], [0, 2]],
      [alan.user.id]: [[], [0], [1], [2]],
    };
    let seen = 0;
    for (const { reader, doc } of received) {
      expect(JSON.stringify(doc)).not.toContain('"voters"');
      for (const poll of pollsIn(doc)) {
        seen += 1;
        expect(Object.keys(poll).sort()).toEqual(POLL_KEYS);
        expect(poll.anonymous).toBe(true);
        for (const option of poll.options) expect(Object.keys(option).sort()).toEqual(['text', 'votes']);
        expect(own[reader]).toContainEqual(poll.my_votes);
      }
    }
    // The polls were indeed in what was searched: frames, pages, search, pins, saved, thread, export.
    expect(seen).toBeGreaterThan(30);
    const graceFrames = graceRoom.received('poll_updated', (f) => f.message_id === ballot.id);
    expect(graceFrames.map((f) => f.poll.my_votes)).toEqual([[1], [1], [1], [1]]);
    expect(adaRoom.received('poll_updated').every((f) => f.poll.my_votes.length === 0)).toBe(true);
  });
});
