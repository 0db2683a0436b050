import { SAFETY_TEXT } from '@parley/protocol';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
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
      <MemoryRouter>
        <MessageBody message={testMessage(7, { body, mentions })} actions={actions} own={false} />
      </MemoryRouter>,
    );

  it('links the members a body mentions, inside and outside its formatting, never inside code or links', async () => {
    await loadFormatter();
    const html = draw('*@ada* look at `@ada` and https://example.com/@ada, @ada', [3]);
    expect(html.match(/data-mention="ada"/g)).toHaveLength(2);
    expect(html).toContain('<strong class="font-semibold"><a ');
    expect(html).toContain('href="/user/ada"');
    expect(html).toContain('<code dir="ltr" class="rounded bg-black/10 px-1 py-px font-mono text-[0.9em]">@ada</code>');
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
    renderToStaticMarkup(<ReplyQuoteView quote={quote} own={false} blocked={blocked} />);

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
  });
});
