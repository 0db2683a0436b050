import { I18nProvider } from '@lingui/react';
import type { ChatDetail, ChatMember } from '@parley/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { englishMessages, messagesIn } from '../../../lib/i18n/catalog-files';
import { i18n } from '../../../lib/i18n/i18n';
import { inviteExpiryText, inviteUsesText } from '../lib/invite-texts';
import { GroupMemberView } from './group-member-view';

// A member's 'Group Chat Settings' in the reader's language: the group's kind, its admin, the members counted by
// the language's plural rules, while what people wrote (the group's name, their names) is kept from translation.

const member = (id: number, username: string, name: string, role: ChatMember['role']): ChatMember => ({
  id,
  username,
  displayname: name,
  name,
  avatar: null,
  is_blue_verified: false,
  last_seen: null,
  is_online: false,
  role,
  profile: { name, avatar: null },
});

const group = (members: ChatMember[]): ChatDetail => ({
  id: 1,
  chat_id: 'g1',
  is_private: false,
  group_name: 'Weekend hikers',
  display_name: 'Weekend hikers',
  description: 'Trails and maps',
  visibility: 'private',
  posting: 'admins',
  avatar: null,
  chat_avatar: null,
  members,
  admin: { id: 1, username: 'ada', profile: { name: 'Ada Lovelace' } },
});

const draw = (detail: ChatDetail) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <GroupMemberView detail={detail} meId={2} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );

const ada = member(1, 'ada', 'Ada Lovelace', 'owner');
const grace = member(2, 'grace', 'Grace Hopper', 'member');
const alan = member(3, 'alan', 'Alan Turing', 'admin');

describe('GroupMemberView in the reader’s language', () => {
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: englishMessages }));

  it('reads in German, counting the members by German plurals', () => {
    i18n.loadAndActivate({ locale: 'de', messages: messagesIn('de') });
    const three = draw(group([ada, grace, alan]));
    expect(three).toContain('Private Gruppe · Nur Admins können schreiben');
    expect(three).toContain('Admin der Gruppe:');
    expect(three).toContain('3 Mitglieder');
    expect(three).toContain('Eigentümer');
    expect(three).toContain('(du)');
    expect(three).toContain('Gruppe verlassen');
    expect(three).toMatch(/translate="no"[^>]*>Weekend hikers</);
    expect(three).toMatch(/translate="no"[^>]*>Ada Lovelace</);
    expect(draw(group([grace]))).toContain('1 Mitglied<');
  });

  it('counts in Arabic with its dual', () => {
    i18n.loadAndActivate({ locale: 'ar', messages: messagesIn('ar') });
    expect(draw(group([ada, grace]))).toContain('عضوان');
  });

  it('says what an invite link has left in German', () => {
    i18n.loadAndActivate({ locale: 'de', messages: messagesIn('de') });
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(inviteExpiryText(new Date(now + 5 * 3_600_000).toISOString(), now)).toBe('Läuft in 5 Stunden ab');
    expect(inviteExpiryText(new Date(now + 3_600_000).toISOString(), now)).toBe('Läuft in 1 Stunde ab');
    expect(inviteUsesText({ uses: 1, max_uses: 1 })).toBe('1 von 1 Nutzung');
    expect(inviteUsesText({ uses: 2, max_uses: null })).toBe('2 Nutzungen');
  });
});
