import type { Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { DomainEvents } from '../../platform/events';
import type { PageRow } from './messages.repo';
import { dropPagesOnChange, NewestPages } from './newest-pages';

const row = (id: number) => ({ id, body: `m${id}` }) as unknown as PageRow;

/** Pages that count their reads of 'c1'; `elsewhere` stands for other connections' commits. */
function counted() {
  const state = { elsewhere: 0, reads: 0 };
  const pages = new NewestPages({ commitsElsewhere: () => state.elsewhere });
  const read = async () => {
    state.reads++;
    return [row(1), row(2)];
  };
  return { state, pages, get: () => pages.get('c1', read) };
}

describe('NewestPages', () => {
  it('reads a page once until the messages change, here or by another connection', async () => {
    const { state, pages, get } = counted();
    expect(await get()).toEqual([row(1), row(2)]);
    expect(await get()).toEqual([row(1), row(2)]);
    expect(state.reads).toBe(1);
    pages.changed();
    await get();
    expect(state.reads).toBe(2);
    state.elsewhere++;
    await get();
    await get();
    expect(state.reads).toBe(3);
  });

  it('keeps nothing read while a change landed, and hands out rows no reader can change', async () => {
    const pages = new NewestPages({ commitsElsewhere: () => 0 });
    let reads = 0;
    // A write lands while the page is being read: what was read may be from before it.
    await pages.get('c1', async () => {
      reads++;
      pages.changed();
      return [row(1)];
    });
    const kept = await pages.get('c1', async () => {
      reads++;
      return [row(1)];
    });
    expect(reads).toBe(2);
    // The reader that read it owns what it got; what is kept is a copy of its own.
    kept.push(row(9));
    (kept[0] as { body: string }).body = 'changed';
    const hit = await pages.get('c1', async () => []);
    expect(hit).toEqual([row(1)]);
    expect(() => {
      (hit[0] as { body: string }).body = 'changed';
    }).toThrow();
  });

  it('lets the least recently read page go past its size', async () => {
    const pages = new NewestPages({ commitsElsewhere: () => 0, max: 2 });
    let reads = 0;
    const read = async () => {
      reads++;
      return [row(1)];
    };
    await pages.get('a', read);
    await pages.get('b', read);
    await pages.get('a', read);
    await pages.get('c', read); // b goes
    expect(reads).toBe(3);
    await pages.get('a', read);
    expect(reads).toBe(3);
    await pages.get('b', read);
    expect(reads).toBe(4);
  });
});

describe('dropPagesOnChange', () => {
  const message = { id: 1 } as Message;

  it('drops the pages after each event that follows a change to stored messages', async () => {
    const events = new DomainEvents();
    const { state, pages, get } = counted();
    dropPagesOnChange(pages, events);
    const changes: (() => void)[] = [
      () =>
        events.emit('message.published', {
          chatId: 'c',
          isPrivate: false,
          message,
          clientId: null,
          memberIds: [],
          resend: false,
        }),
      () => events.emit('message.updated', { chatId: 'c', message, latest: true }),
      () => events.emit('message.deleted', { chatId: 'c', messageId: 1, latest: true }),
      () => events.emit('reactions.updated', { chatId: 'c', messageId: 1, reactions: [] }),
      () => events.emit('chat.deleted', { chatId: 'c', avatar: null, memberIds: [] }),
      () => events.emit('account.deleted', { userId: 1 }),
    ];
    await get();
    for (const [i, change] of changes.entries()) {
      change();
      await get();
      expect(state.reads, `change ${i}`).toBe(i + 2);
    }
  });

  it('keeps the pages through a resend, which stores nothing, and events about no stored message', async () => {
    const events = new DomainEvents();
    const { state, pages, get } = counted();
    dropPagesOnChange(pages, events);
    await get();
    events.emit('message.published', {
      chatId: 'c',
      isPrivate: false,
      message,
      clientId: 'x',
      memberIds: [],
      resend: true,
    });
    events.emit('messages.read', { chatId: 'c', userId: 1, messageIds: [1], deliveredIds: [1] });
    events.emit('user.deleted', { userId: 1 });
    await get();
    expect(state.reads).toBe(1);
  });
});
