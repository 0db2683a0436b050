import { describe, expect, it } from 'vitest';
import { addMember, createGroup, messageWith, people, say } from '../chats/chat-helpers';
import { monitorRedis } from '../helpers/redis-monitor';
import { useTestApp } from '../helpers/test-app';
import { joinRoom, openNotifications } from '../helpers/ws-client';

// With REDIS_URL, what a chat message asks of Redis is its publish. The rate limit is counted there
// without being waited for (one script call), and who is in the room and who is online (for the away list, push
// and the missed-message mail) come from the process's mirror. Redis's MONITOR shows every command; those naming
// this test's chat and people are the message's.

const redisUrl = process.env.REDIS_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!redisUrl)('a chat message over Redis', () => {
  const app = useTestApp({ env: { REDIS_URL: redisUrl, SIGNUPS_PER_IP_HOUR: '1000000' } });

  it('is published and counted, and reads no presence from Redis', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const chatId = await createGroup(t, ada.token, 'Watched');
    await addMember(t, chatId, grace.user.id);
    await addMember(t, chatId, alan.user.id);
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const graceRoom = await joinRoom(t, grace.token, chatId);
    // Alan is away: he is told on his notification socket.
    const alanNotes = (await openNotifications(t, alan.token)).client;
    // The first message has the mirror read the room and the people it had not seen yet.
    await say(adaRoom, 'First');
    await sleep(300);

    const ours = new Map<string, string>([
      [`parley:rl:ws-msg:${ada.user.id}`, 'rate limit'],
      [`parley:room:${chatId}`, 'room presence'],
      [`room:${chatId}`, 'room topic'],
      [`user:${alan.user.id}`, 'user topic'],
      ...[ada, grace, alan].map((p) => [`parley:online:${p.user.id}`, 'online presence'] as [string, string]),
    ]);
    const commands: string[] = [];
    const monitor = await monitorRedis(redisUrl as string, (args, source) => {
      // What a script runs inside Redis is part of its one call.
      if (source === 'lua') return;
      const key = args.slice(1).find((a) => ours.has(a));
      if (key) commands.push(`${String(args[0]).toLowerCase()} ${ours.get(key)}`);
    });
    try {
      adaRoom.send({ type: 'chat_message', body: 'Watched', client_id: 'watched-1' });
      await messageWith(graceRoom, 'Watched');
      await alanNotes.next('new_message', (f) => f.message.message === 'Watched');
      // What runs after the delivery (the away list, push, the mail, the unread count round) has its turn.
      await sleep(500);
    } finally {
      monitor.stop();
    }

    expect(commands.filter((c) => c.startsWith('publish room'))).toEqual(['publish room topic']);
    expect(commands).toContain('publish user topic');
    expect(commands.filter((c) => c.includes('rate limit'))).toEqual(['eval rate limit']);
    expect(commands.filter((c) => c.includes('presence'))).toEqual([]);
    expect(commands.every((c) => c.startsWith('publish') || c === 'eval rate limit')).toBe(true);
    await Promise.all([adaRoom.close(), graceRoom.close(), alanNotes.close()]);
  });
});
