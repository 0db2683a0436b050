import type { Message } from '@parley/protocol';
import { catchUpMessages, type PageFetch } from '@parley/web/room-catch-up';
import { cpuSeconds } from '../lib/proc';

// Catch-up after a reconnect: a client had the 50 messages up to some id loaded, was away while
// 1,000 more were sent, and reconnects. It fetches what the web app fetches then — the web app's own
// catchUpMessages (@parley/web/room-catch-up): its loaded stretch read again, for
// the edits, deletions and reactions made meanwhile, and everything after it, 100 messages a request — and
// the server's CPU for that is measured. The server's CPU clock ticks every 10 ms, so each figure times
// WALKS catch-ups back to back and gives the time of one.
export const MISSED = 1000;
const LOADED = 50;
const WALKS = 20;

export interface CatchUpRun {
  rep: number;
  /** Messages the client missed, and those it had loaded (read again). */
  missed: number;
  loaded: number;
  /** Requests one catch-up made. */
  requests: number;
  /** Catch-ups timed together. */
  walks: number;
  /** The server's CPU for one catch-up. */
  serverCpuMs: number;
  /** The client's wall time for one catch-up, one request after another as the web app makes them. */
  wallMs: number;
}

export interface CatchUpTarget {
  /** The chat's history URL (GET /api/chats/{chat_id}/messages/). */
  url: string;
  token: string;
  pid: number;
}

/** Measures `reps` catch-ups of MISSED messages in a chat that holds at least MISSED + LOADED of them. */
export async function runCatchUp(t: CatchUpTarget, reps: number): Promise<CatchUpRun[]> {
  let requests = 0;
  const fetchPage: PageFetch = async (page) => {
    requests += 1;
    // The query the web app's getMessages builds.
    const params = new URLSearchParams({ limit: String(page.limit) });
    if (page.before !== undefined) params.set('before', String(page.before));
    if (page.after !== undefined) params.set('after', String(page.after));
    const res = await fetch(`${t.url}?${params}`, { headers: { authorization: `Bearer ${t.token}` } });
    if (!res.ok) throw new Error(`catch-up page: HTTP ${res.status}`);
    return (await res.json()) as Message[];
  };

  // What the client had: the LOADED messages before the last MISSED (read newest first, untimed).
  const newest: Message[] = [];
  for (let before: number | undefined; newest.length < MISSED + LOADED; ) {
    const page = await fetchPage({ before, limit: 100 });
    if (page.length === 0) throw new Error(`catch-up: the chat holds ${newest.length} messages`);
    newest.unshift(...page);
    before = page[0]?.id;
  }
  const cut = newest.length - MISSED;
  const loaded = newest.slice(cut - LOADED, cut);
  const expected = [...loaded, ...newest.slice(cut)].map((m) => m.id).join(',');

  const walk = async () => {
    requests = 0;
    const got = await catchUpMessages(fetchPage, loaded);
    if (got.map((m) => m.id).join(',') !== expected)
      throw new Error(`catch-up: ${got.length} messages, not the ${LOADED} loaded and ${MISSED} missed`);
    return requests;
  };
  await walk();
  const runs: CatchUpRun[] = [];
  for (let rep = 1; rep <= reps; rep++) {
    const cpuBefore = cpuSeconds(t.pid);
    const started = performance.now();
    let perWalk = 0;
    for (let i = 0; i < WALKS; i++) perWalk = await walk();
    const wallMs = (performance.now() - started) / WALKS;
    const serverCpuMs = ((cpuSeconds(t.pid) - cpuBefore) * 1000) / WALKS;
    runs.push({ rep, missed: MISSED, loaded: LOADED, requests: perWalk, walks: WALKS, serverCpuMs, wallMs });
  }
  return runs;
}
