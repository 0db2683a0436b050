import { afterEach, describe, expect, it, vi } from 'vitest';
import { messagesWorld } from '../../test-support/messages-world';
import * as repo from './message-changes.repo';

// A catch-up after a reconnect walks the history forward, 100 messages a request: each page is one
// keyset statement on the messages, prepared once, beside the members it is given (and the files of its
// stretch, the attachments module's one statement, faked here); reactions are read only for a page whose
// messages carry some. Over a real in-memory SQLite database.

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await close?.();
  close = null;
});

describe('MessageReader: catching up', () => {
  it('reads each page of a catch-up with one keyset statement on the messages', async () => {
    const w = await messagesWorld();
    close = () => w.db.destroy();
    const ada = await w.person('Ada');
    const grace = await w.person('Grace');
    const chat = await w.chat([ada, grace]);
    const other = await w.chat([ada, grace], { group: true });
    const ids: number[] = [];
    for (let i = 0; i < 250; i++) {
      ids.push(await w.post(chat, i % 2 ? ada : grace, `m${i}`));
      if (i % 50 === 0) await w.post(other, ada, `elsewhere ${i}`);
    }
    const reacted = ids[180] as number;
    await repo.addReaction(w.db, { message_id: reacted, user_id: grace, emoji: '👍', created_at: '' });
    await w.db.updateTable('messages').set({ reaction_count: 1 }).where('id', '=', reacted).execute();
    const members = await w.chats.pageMembers(chat.id);

    const statements: string[] = [];
    const executor = w.db.getExecutor();
    const execute = executor.executeQuery.bind(executor);
    vi.spyOn(executor, 'executeQuery').mockImplementation((q) => {
      statements.push(q.sql);
      return execute(q);
    });

    // From the 10th message on, as the web app's pagesAfter asks: until a short page.
    const walked: number[] = [];
    const perPage: string[][] = [];
    for (let after = ids[9] as number; ; ) {
      statements.length = 0;
      const page = await w.reader.page(chat, grace, { after, limit: 100, clearedBefore: 0 }, members);
      perPage.push([...statements]);
      walked.push(...page.map((m) => m.id));
      if (page.length < 100) break;
      after = page[page.length - 1]?.id as number;
    }
    expect(walked).toEqual(ids.slice(10));
    expect(perPage.map((s) => s.length)).toEqual([1, 2, 1]);
    const pages = perPage.map((s) => s[0]);
    expect(new Set(pages).size).toBe(1);
    expect(pages[0]).toMatch(
      /from "messages" where "chat_id" = \? and "in_timeline" = \? and "id" > \? and "id" <= \? order by "id" asc limit \?$/,
    );
    // The second page carries the reaction: its reactions, and only those, are read.
    expect(perPage[1]?.[1]).toMatch(/from "messages" inner join "message_reactions"/);
  });
});
