import type { FileType, PollInput, ReplyQuote } from '@parley/protocol';
import { createStore, del, entries, get, set, type UseStore } from 'idb-keyval';

// The outbox: every message this person sends is kept in IndexedDB, with its client_id, from the
// moment it is typed until the server's echo (or a page holding it) shows it stored — so a message typed while
// the network is down survives a reload or a closed tab and goes out, in order, when a room socket opens. The
// server stores a (sender, chat, client_id) once, so a message sent again after a drop lands exactly once.
// One database per account: another person signing in on the same browser never sees or sends this outbox.
// A thread's replies wait here too (thread_root set): they are its pane's, never the room's pending list; who
// sends them is thread-sends.ts's rule.

/** A voice message's fields as its upload sends them. */
export interface VoiceMeta {
  duration_ms: number;
  waveform: number[];
}

export interface OutboxEntry {
  client_id: string;
  chat_id: string;
  body: string;
  /** When it was typed (ISO), drawn on the pending bubble. */
  timestamp: string;
  /** The sending order: entries go out by ascending seq. */
  seq: number;
  reply_to?: ReplyQuote;
  /** Files chosen while offline (or whose upload did not finish): uploaded before the message goes. */
  files?: File[];
  /** What the pending bubble shows of those files. */
  uploads?: { name: string; size: number; type: FileType }[];
  /** The one file is a voice message, uploaded with these fields. */
  voice?: VoiceMeta;
  /** The uploaded files' ids: once set, the files are never uploaded again. */
  file_ids?: number[];
  /** The server refused it (an error frame with its client_id): it waits for Retry or Cancel. */
  error?: string;
  /** A reply in the thread under this message: shown in that thread's pane, not in the room. */
  thread_root?: number;
  /** A thread reply sent to the chat too. */
  also_in_chat?: boolean;
  /** The message is this poll (its body may be empty). */
  poll?: PollInput;
}

export type OutboxPatch = Partial<
  Omit<OutboxEntry, 'client_id' | 'chat_id' | 'thread_root' | 'also_in_chat'>
>;

/** Whether an entry is a thread's reply (its pane's) rather than a message of the room's timeline. */
export const isThreadReply = (entry: Pick<OutboxEntry, 'thread_root'>): boolean => entry.thread_root != null;

let lastSeq = 0;

/** A strictly increasing number in this tab, and across reloads (it starts from the clock). */
export function nextSeq(now: number = Date.now()): number {
  lastSeq = Math.max(lastSeq + 1, now * 1000);
  return lastSeq;
}

/** Entries in the order they go out. */
export const bySeq = (list: OutboxEntry[]): OutboxEntry[] => [...list].sort((a, b) => a.seq - b.seq);

/** A file as stored: its bytes and what makes it a File again (not every structured clone keeps a File's name). */
interface StoredFile {
  name: string;
  type: string;
  lastModified: number;
  data: Blob;
}

type StoredEntry = Omit<OutboxEntry, 'files'> & { files?: StoredFile[] };

const toStored = ({ files, ...rest }: OutboxEntry): StoredEntry =>
  files
    ? {
        ...rest,
        files: files.map((f) => ({ name: f.name, type: f.type, lastModified: f.lastModified, data: f })),
      }
    : rest;

const fromStored = ({ files, ...rest }: StoredEntry): OutboxEntry =>
  files
    ? {
        ...rest,
        files: files.map((f) => new File([f.data], f.name, { type: f.type, lastModified: f.lastModified })),
      }
    : rest;

export class Outbox {
  constructor(private readonly store: UseStore) {}

  add(entry: OutboxEntry): Promise<void> {
    return set(entry.client_id, toStored(entry), this.store);
  }

  async get(clientId: string): Promise<OutboxEntry | undefined> {
    const stored = await get<StoredEntry>(clientId, this.store);
    return stored && fromStored(stored);
  }

  /** Changes a waiting entry; one already gone (echoed, cancelled) stays gone. */
  async patch(clientId: string, patch: OutboxPatch): Promise<void> {
    const current = await this.get(clientId);
    if (!current) return;
    const next: OutboxEntry = { ...current, ...patch };
    // A key patched to undefined is dropped (the files, once uploaded; an error, on retry).
    for (const key of Object.keys(patch) as (keyof OutboxPatch)[])
      if (patch[key] === undefined) delete next[key];
    await set(clientId, toStored(next), this.store);
  }

  remove(clientId: string): Promise<void> {
    return del(clientId, this.store);
  }

  /** Everything waiting, in sending order. */
  async all(): Promise<OutboxEntry[]> {
    const rows = await entries<string, StoredEntry>(this.store);
    return bySeq(rows.map(([, entry]) => fromStored(entry)));
  }

  /** One chat's waiting messages of its timeline (the room's), in sending order: no thread's replies. */
  async forChat(chatId: string): Promise<OutboxEntry[]> {
    return (await this.all()).filter((e) => e.chat_id === chatId && !isThreadReply(e));
  }

  /** One chat's waiting thread replies, in sending order: those under `rootId` when it is given. */
  async threadReplies(chatId: string, rootId?: number): Promise<OutboxEntry[]> {
    return (await this.all()).filter(
      (e) => e.chat_id === chatId && isThreadReply(e) && (rootId === undefined || e.thread_root === rootId),
    );
  }
}

const outboxes = new Map<number, Outbox>();

/** The signed-in person's outbox (its own IndexedDB database). */
export function outboxFor(userId: number): Outbox {
  let outbox = outboxes.get(userId);
  if (!outbox) {
    outbox = new Outbox(createStore(`parley-outbox-${userId}`, 'messages'));
    outboxes.set(userId, outbox);
  }
  return outbox;
}
