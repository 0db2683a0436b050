import { I18nProvider } from '@lingui/react';
import {
  CHANNEL_TEXT,
  COMMAND_TEXT,
  DELETED_MESSAGE_TEXT,
  OFFLINE_TEXT,
  SAFETY_TEXT,
  VOICE_TEXT,
} from '@parley/protocol';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import en from '../../../../../../packages/protocol/catalogs/en.json';
import { i18n } from '../../../lib/i18n/i18n';
import { testMessage } from '../../../lib/messages/test-message';
import { loadFormatter } from '../../../lib/text/rich-text/rich-text';
import type { MessageActions } from './message-actions-context';
import { MessageBody, ReplyQuoteView, reactorsText } from './message-parts';

describe('reactorsText', () => {
  const names = new Map([
    [2, 'Grace Hopper'],
    [3, 'Ada Lovelace'],
  ]);
  it("names who reacted from the chat's members, 'You' for oneself", () => {
    expect(reactorsText([2, 1, 3], { meId: 1, names })).toBe('Grace Hopper, You, Ada Lovelace');
  });
  it("says 'Someone' for a person no longer among the members", () => {
    expect(reactorsText([9], { meId: 1, names })).toBe('Someone');
  });
});

describe('MessageBody', () => {
  const actions = {
    meId: 1,
    usernameById: new Map([
      [1, 'grace'],
      [3, 'ada'],
    ]),
  } as unknown as MessageActions;
  const draw = (body: string, mentions: number[] = []) =>
    renderToStaticMarkup(
      <I18nProvider i18n={i18n}>
        <MemoryRouter>
          <MessageBody message={testMessage(7, { body, mentions })} actions={actions} own={false} />
        </MemoryRouter>
      </I18nProvider>,
    );

  it('links the members a body mentions, inside and outside its formatting, never inside code or links', async () => {
    await loadFormatter();
    const html = draw('*@ada* look at `@ada` and https://example.com/@ada, @ada', [3]);
    expect(html.match(/data-mention="ada"/g)).toHaveLength(2);
    expect(html).toContain('<strong class="font-semibold"><a ');
    expect(html).toContain('href="/user/ada"');
    expect(html).toContain(
      '<code dir="ltr" class="rounded bg-black/10 px-1 py-px font-mono text-[0.9em]">@ada</code>',
    );
    expect(html).toContain(
      'href="https://example.com/@ada" target="_blank" rel="noopener noreferrer nofollow"',
    );
  });

  it('draws a body without markers as it was typed, HTML included, as text', () => {
    const html = draw('<b>hi</b> @nobody\n  second line');
    expect(html).toContain('&lt;b&gt;hi&lt;/b&gt; @nobody\n  second line');
    expect(html).not.toContain('<b>');
  });
});

describe('ReplyQuoteView', () => {
  const quote = { id: 4, sender_name: 'Mallory', sender_id: 9, body: 'the secret text', is_deleted: false };
  const draw = (blocked: boolean) =>
    renderToStaticMarkup(
      <I18nProvider i18n={i18n}>
        <ReplyQuoteView quote={quote} own={false} blocked={blocked} />
      </I18nProvider>,
    );

  it('folds the quote of someone the reader blocked as the room folds their messages, their text nowhere', () => {
    const html = draw(true);
    expect(html).toContain(`${SAFETY_TEXT.blockedMessage} —`);
    expect(html).toContain(`>${SAFETY_TEXT.showBlocked}</button>`);
    expect(html).not.toContain('the secret text');
    expect(html).not.toContain('Mallory');
  });

  it("shows anyone else's quote, named and with its text", () => {
    const html = draw(false);
    expect(html).toContain('the secret text');
    expect(html).toContain('data-testid="reply-quote"');
    expect(html).toContain('aria-label="Reply to Mallory: the secret text. Show the original message"');
  });
});

describe('the English texts of a message', () => {
  it("repeat the protocol's words", () => {
    expect(en['room.msg.deleted']).toBe(DELETED_MESSAGE_TEXT);
    expect(en['room.msg.blocked']).toBe(SAFETY_TEXT.blockedMessage);
    expect(en['room.msg.showBlocked']).toBe(SAFETY_TEXT.showBlocked);
    expect(en['room.join.adminsOnly']).toBe(CHANNEL_TEXT.adminsOnly);
    expect(en['room.commands.onlyYou']).toBe(COMMAND_TEXT.onlyVisibleToYou);
    expect([
      en['room.voice.micDenied'],
      en['room.voice.micMissing'],
      en['room.voice.micUnsupported'],
    ]).toEqual([VOICE_TEXT.micDenied, VOICE_TEXT.micMissing, VOICE_TEXT.micUnsupported]);
    expect([en['room.msg.cancel'], en['room.msg.cancelLabel'], en['room.msg.waiting']]).toEqual([
      OFFLINE_TEXT.cancel,
      OFFLINE_TEXT.cancelLabel,
      OFFLINE_TEXT.waiting,
    ]);
  });

  it('read as before, an apostrophe included', () => {
    expect(i18n._('room.msg.profileOf', { name: 'Grace' })).toBe("Grace's profile");
    expect(i18n._('room.msg.reactionMine', { emoji: '👍', count: 1200, who: 'You' })).toBe(
      '👍 1200: You. Remove your reaction',
    );
  });
});
