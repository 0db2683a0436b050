import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../helpers/server-process';
import type { SignedUp } from '../helpers/test-app';
import { twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';
import { ask, closePoll, counts, pollUpdate, vote } from './poll-helpers';

// Polls between two processes on one PostgreSQL and one Redis (the PostgreSQL + Redis pass only): one
// poll_updated crosses the bus, and each process tells each of its sockets its own reader's choices.
describe.skipIf(!twoProcessesEnabled)('polls across two processes', () => {
  const processes = useTwoProcesses();
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: SignedUp;
  let grace: SignedUp;
  let alan: SignedUp;
  const WAIT = 10_000;

  beforeAll(async () => {
    ({ a, b } = processes());
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
    alan = await b.signUp({ first_name: 'Alan', last_name: 'Tester' });
  }, 60_000);

  it('votes through either process reach every socket with its own reader’s choices', async () => {
    const made = await a.post('/api/chats/group/new/', { group_name: 'Across' }, ada.token);
    expect(made.status, made.text).toBe(200);
    const chatId: string = made.body.chat_id;
    const added = await a.post(
      `/api/chats/${chatId}/members/`,
      { members: [grace.user.username, alan.user.username] },
      ada.token,
    );
    expect(added.status, added.text).toBe(200);
    const adaRoom = (await a.joinRoom(ada.token, chatId, 'ada')).client;
    const graceRoom = (await b.joinRoom(grace.token, chatId, 'grace')).client;
    const alanRoom = (await b.joinRoom(alan.token, chatId, 'alan')).client;
    const poll = await ask(adaRoom, { anonymous: true, multiple: true });
    await graceRoom.next('chat_message', (f) => f.message.id === poll.id, WAIT);

    expect((await vote(a, grace.token, chatId, poll.id, [1])).status).toBe(200);
    const forGrace = await pollUpdate(graceRoom, poll.id);
    expect(forGrace.poll.my_votes).toEqual([1]);
    expect((await pollUpdate(alanRoom, poll.id)).poll.my_votes).toEqual([]);
    expect((await pollUpdate(adaRoom, poll.id)).poll.my_votes).toEqual([]);

    expect((await vote(b, alan.token, chatId, poll.id, [0, 1])).status).toBe(200);
    expect((await pollUpdate(alanRoom, poll.id)).poll.my_votes).toEqual([0, 1]);
    expect((await pollUpdate(graceRoom, poll.id)).poll.my_votes).toEqual([1]);
    const forAda = await pollUpdate(adaRoom, poll.id);
    expect(forAda.poll).toMatchObject({ my_votes: [], voter_count: 2 });
    expect(counts(forAda.poll)).toEqual([1, 2, 0]);

    expect((await closePoll(b, ada.token, chatId, poll.id)).body.closed).toBe(true);
    expect((await pollUpdate(adaRoom, poll.id, (p) => p.closed)).poll.my_votes).toEqual([]);
    expect((await pollUpdate(graceRoom, poll.id, (p) => p.closed)).poll.my_votes).toEqual([1]);
    expect((await vote(a, grace.token, chatId, poll.id, [0])).status).toBe(409);
    for (const room of [adaRoom, graceRoom, alanRoom])
      for (const frame of room.frames) expect(JSON.stringify(frame)).not.toContain('"voters"');
  });
});
