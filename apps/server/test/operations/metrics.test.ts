import fs from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { messageWith, people, say, startChat } from '../chats/chat-helpers';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { joinRoom } from '../helpers/ws-client';

// Prometheus metrics: off unless METRICS_TOKEN (a bearer token on /metrics) or METRICS_PORT (a port
// of their own) is set; what a message, a request, a refusal and a mail do to them.

const here = path.dirname(fileURLToPath(import.meta.url));
const TOKEN = 'a-metrics-token-of-some-length';

/** The value of one sample (`name{labels} value`) in the exposition text, its labels all of `labels`; 0 when absent. */
function sample(text: string, name: string, ...labels: string[]): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(labels.length ? `${name}{` : `${name} `) && labels.every((x) => l.includes(x)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

const scrape = async (t: TestApp) => {
  const res = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text;
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('/metrics', () => {
  it('is not served (and nothing is collected) without METRICS_TOKEN or METRICS_PORT', async () => {
    const t = await startTestApp();
    try {
      expect(t.ctx.metrics).toBeNull();
      const res = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('parley_');
    } finally {
      await t.close();
    }
  });

  it('wants the bearer token', async () => {
    const t = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });
    try {
      expect((await t.get('/metrics')).status).toBe(401);
      const wrong = await t.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } });
      expect(wrong.status).toBe(401);
      expect(wrong.text).not.toContain('parley_');
      expect(await scrape(t)).toContain('parley_open_sockets');
    } finally {
      await t.close();
    }
  });

  it('counts messages, batches, deliveries, sockets, statements, requests, refusals and mails', async () => {
    const t = await startTestApp({ env: { METRICS_TOKEN: TOKEN, MESSAGE_RATE_LIMIT: '3' } });
    try {
      const [ada, grace] = await people(t, 'Ada', 'Grace');
      const chatId = await startChat(t, ada.token, grace.user.id);
      const before = await scrape(t);
      expect(sample(before, 'parley_mails_total', 'outcome="sent"')).toBeGreaterThanOrEqual(2);

      const adaRoom = await joinRoom(t, ada.token, chatId);
      const graceRoom = await joinRoom(t, grace.token, chatId);
      await say(adaRoom, 'quokka-secret-one');
      await say(adaRoom, 'two');
      await messageWith(graceRoom, 'two');
      // The fourth message within the window is refused by the rate limit.
      await say(adaRoom, 'three');
      adaRoom.send({ type: 'chat_message', body: 'four', client_id: 'refused-4' });
      await adaRoom.next('error', (f) => f.client_id === 'refused-4');
      await t.get(`/api/chats/${chatId}/`, ada.token);
      await t.get('/api/chats/not-a-chat/', ada.token);

      const after = await scrape(t);
      expect(sample(after, 'parley_messages_stored_total')).toBe(3);
      expect(sample(after, 'parley_group_commit_batch_size_count')).toBeGreaterThanOrEqual(1);
      expect(sample(after, 'parley_group_commit_batch_size_sum')).toBe(3);
      expect(sample(after, 'parley_commit_to_socket_seconds_count')).toBe(3);
      // Each message reached both room sockets.
      expect(sample(after, 'parley_deliveries_written_total')).toBeGreaterThanOrEqual(6);
      expect(sample(after, 'parley_open_sockets', 'channel="room"')).toBe(2);
      expect(sample(after, 'parley_open_sockets', 'channel="notifications"')).toBe(0);
      expect(sample(after, 'parley_db_statement_seconds_count', 'outcome="ok"')).toBeGreaterThan(
        sample(before, 'parley_db_statement_seconds_count', 'outcome="ok"'),
      );
      expect(sample(after, 'parley_rate_limit_refusals_total', 'via="socket"')).toBe(1);
      expect(
        sample(after, 'parley_http_requests_total', 'route="/api/chats/:chatId/"', 'status="200"'),
      ).toBeGreaterThanOrEqual(1);
      expect(
        sample(after, 'parley_http_requests_total', 'route="/api/chats/:chatId/"', 'status="404"'),
      ).toBeGreaterThanOrEqual(1);
      expect(after).toContain('parley_nodejs_eventloop_lag_p99_seconds');
      // Never a body, a token or an email address in the metrics.
      expect(after).not.toContain('quokka');
      expect(after).not.toContain(ada.token);
      expect(after).not.toContain('@');
      adaRoom.close();
      graceRoom.close();
    } finally {
      await t.close();
    }
  });

  it('has every metric the Grafana dashboard in deploy/ charts', async () => {
    const t = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });
    try {
      const text = await scrape(t);
      const dashboard = await fs.readFile(
        path.resolve(here, '../../../../deploy/grafana-dashboard.json'),
        'utf8',
      );
      const charted = new Set(
        [...dashboard.matchAll(/parley_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, '')),
      );
      expect(charted.size).toBeGreaterThan(10);
      for (const name of charted) expect(text, name).toContain(`# TYPE ${name} `);
    } finally {
      await t.close();
    }
  });

  it('is served on METRICS_PORT without a token, and not on the app port', async () => {
    const port = await freePort();
    const t = await startTestApp({ env: { METRICS_PORT: String(port) } });
    try {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('parley_http_requests_total');
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
      expect((await t.get('/metrics')).status).toBe(404);
    } finally {
      await t.close();
    }
    // Closed with the app.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});

describe('request ids', () => {
  it('each answer names its request id, and a proxy-given one is kept', async () => {
    const t = await startTestApp();
    try {
      const a = await t.get('/healthz');
      const b = await t.get('/healthz');
      expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
      const given = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'proxy-42' } });
      expect(given.headers.get('x-request-id')).toBe('proxy-42');
      const odd = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'not a valid id!' } });
      expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await t.close();
    }
  });
});
