import { compileMessage } from '@lingui/message-utils/compileMessage';
import { I18nProvider } from '@lingui/react';
import type { FollowedThread, Message } from '@parley/protocol';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messagesIn } from '../../../lib/i18n/catalog-files';
import { i18n } from '../../../lib/i18n/i18n';
import { ThreadRow } from './thread-row';

// The browse screens in German: a followed thread's row (its counts as plurals, the people's words marked as
// theirs).

const message = (over: Partial<Message>): Message =>
  ({
    id: 1,
    chatroom: 'c1',
    sender: 2,
    sender_name: 'Grace Hopper',
    sender_username: 'grace',
    sender_avatar: null,
    body: 'Wer kommt mit?',
    files: [],
    poll: null,
    is_deleted: false,
    timestamp: '2026-11-29T09:00:00Z',
    thread: { reply_count: 3, last_reply_at: '2026-11-20T09:00:00Z' },
    ...over,
  }) as Message;

const thread = (over: Partial<FollowedThread> = {}): FollowedThread => ({
  chat_id: 'c1',
  chat_name: 'Team Lunch',
  is_private: false,
  root: message({}),
  last_replies: [
    message({ id: 2, sender_name: 'Ada', body: '', files: [{ id: 1 }, { id: 2 }] as Message['files'] }),
    message({ id: 3, sender_name: 'Alan', body: '', files: [{ id: 3 }] as Message['files'] }),
  ],
  unread_count: 2,
  ...over,
});

const draw = (node: React.ReactNode) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <MemoryRouter>{node}</MemoryRouter>
    </I18nProvider>,
  );

/** The text a page shows, without its markup. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, '');

describe('the browse screens in German', () => {
  beforeEach(() => {
    i18n.setMessagesCompiler(compileMessage);
    i18n.loadAndActivate({ locale: 'de', messages: messagesIn('de') });
  });
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: messagesIn('en') }));

  it('draws a followed thread with its counts as plurals', () => {
    const row = textOf(draw(<ThreadRow thread={thread()} />));
    expect(row).toContain('2 ungelesene Antworten');
    expect(row).toContain('3 Antworten');
    expect(row).toContain('2 Dateien');
    expect(row).toContain('Eine Datei');
    expect(textOf(draw(<ThreadRow thread={thread({ unread_count: 1 })} />))).toContain(
      '1 ungelesene AntwortGrace',
    );
  });

  it("marks what people wrote as theirs, not Parley's to translate", () => {
    const row = draw(<ThreadRow thread={thread()} />);
    expect(row).toContain('translate="no"');
    expect(row).toMatch(/<p translate="no"[^>]*>Team Lunch<\/p>/);
    expect(row).toMatch(/<span translate="no"[^>]*>Wer kommt mit\?<\/span>/);
  });
});
