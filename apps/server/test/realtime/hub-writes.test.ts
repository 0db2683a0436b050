import { once } from 'node:events';
import { type AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { type Client, Hub, topics } from '../../src/modules/realtime/hub';
import { MemoryBus } from '../../src/platform/bus';
import { people, startChat } from '../chats/chat-helpers';
import { useTestApp } from '../helpers/test-app';
import { joinRoom, openNotifications } from '../helpers/ws-client';

// The hub corks a connection while the code that announces a batch of messages runs (message-writer.ts
// announces a whole batch in one go), so a socket gets one write for all its frames of that moment, not one
// system call per frame. Frames still arrive whole and in order, and later frames are not held back.

const app = useTestApp();
const servers: WebSocketServer[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
});

/** A real WebSocket pair; the server side's connection counts the writes that reach the operating system. */
async function pair() {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(server);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  sockets.push(client);
  const [serverWs, req] = (await once(server, 'connection')) as [WebSocket, { socket: Socket }];
  sockets.push(serverWs);
  const tcp = req.socket;
  const writes = { count: 0 };
  const internals = tcp as unknown as {
    _writev: (chunks: unknown[], cb: () => void) => void;
    _write: (chunk: unknown, enc: string, cb: () => void) => void;
  };
  const writev = internals._writev.bind(tcp);
  const write = internals._write.bind(tcp);
  internals._writev = (chunks, cb) => {
    writes.count++;
    writev(chunks, cb);
  };
  internals._write = (chunk, enc, cb) => {
    writes.count++;
    write(chunk, enc, cb);
  };
  const received: string[] = [];
  client.on('message', (data) => received.push(String(data)));
  await once(client, 'open');
  return { serverWs, tcp, writes, received };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('Hub writes', () => {
  it('writes the frames of one moment to a socket with one system call, whole and in order', async () => {
    const bus = new MemoryBus();
    const hub = new Hub({ bus });
    const a = await pair();
    const b = await pair();
    const room = topics.room('c1');
    const clients: Client[] = [a, b].map((p, i) => ({
      ws: p.serverWs,
      tcp: p.tcp,
      userId: i + 1,
      sessionId: i + 1,
      chatId: 'c1',
    }));
    for (const c of clients) hub.attach(room, c);
    await hub.ready(room);

    const frames = Array.from({ length: 20 }, (_, i) => JSON.stringify({ type: 'chat_message', n: i }));
    for (const data of frames) void bus.publish(room, { data });
    await until(() => a.received.length === 20 && b.received.length === 20);
    expect(a.received).toEqual(frames);
    expect(b.received).toEqual(frames);
    expect(a.writes.count).toBe(1);
    expect(b.writes.count).toBe(1);

    // A later moment is written on its own, promptly: nothing stays corked.
    expect(a.tcp.writableCorked).toBe(0);
    void bus.publish(room, { data: '{"type":"later"}' });
    await until(() => a.received.length === 21);
    expect(a.received.at(-1)).toBe('{"type":"later"}');
    expect(a.writes.count).toBe(2);
  });

  it('knows the connection under every socket the routes open, so their writes are corked', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const room = await joinRoom(t, ada.token, chatId);
    const bell = (await openNotifications(t, grace.token)).client;
    const clients = [...t.ctx.hub.watched()];
    expect(clients).toHaveLength(2);
    for (const c of clients) expect(c.tcp).toBeInstanceOf(Socket);
    await Promise.all([room.close(), bell.close()]);
  });
});
