import {
  type ChatListItem,
  displayNameOf,
  type MessageSearchResult,
  type ProfileListItem,
} from '@parley/protocol';
import type { MessageId } from '../../../lib/i18n/i18n';
import { filterByName, nameHighlights } from '../../../lib/text/name-match';

// The search dialog's results as one list of options in groups (people, chats, messages), and how the arrow
// keys move through it: ↑/↓ go from group to group as if it were one list, wrapping at the ends.

type Ranges = [number, number][];

export type SearchOption =
  | { kind: 'person'; key: string; person: ProfileListItem; name: string; highlights: Ranges }
  | { kind: 'chat'; key: string; chat: ChatListItem; highlights: Ranges }
  | { kind: 'message'; key: string; result: MessageSearchResult }
  | { kind: 'more'; key: string };

export type SearchGroupKey = 'people' | 'chats' | 'messages';

export interface SearchGroup {
  key: SearchGroupKey;
  /** The group's heading, a catalog id. */
  label: MessageId;
  options: SearchOption[];
}

export const PEOPLE_SHOWN = 5;
export const CHATS_SHOWN = 5;

export interface GroupInput {
  /** What is typed now (chats are filtered at once); blank lists the newest chats, a quick switcher. */
  query: string;
  people: readonly ProfileListItem[];
  chats: readonly ChatListItem[];
  messages: readonly MessageSearchResult[];
  /** Another page of messages can be loaded: the group ends with 'More results'. */
  moreMessages: boolean;
}

export type PersonOption = Extract<SearchOption, { kind: 'person' }>;

/** A person as an option, the words of their name that `query` starts marked. */
export function personOption(person: ProfileListItem, query: string): PersonOption {
  const name = displayNameOf(person);
  return {
    kind: 'person',
    key: `person-${person.id}`,
    person,
    name,
    highlights: nameHighlights(name, query),
  };
}

/** The non-empty groups, in the order shown. */
export function buildGroups({ query, people, chats, messages, moreMessages }: GroupInput): SearchGroup[] {
  const blank = query.trim() === '';
  const groups: SearchGroup[] = [
    {
      key: 'people',
      label: 'browse.search.people',
      options: (blank ? [] : people).slice(0, PEOPLE_SHOWN).map((person) => personOption(person, query)),
    },
    {
      key: 'chats',
      label: blank ? 'browse.search.recentChats' : 'browse.search.chats',
      options: filterByName(chats, query, (c) => c.display_name)
        .slice(0, CHATS_SHOWN)
        .map((chat) => ({
          kind: 'chat',
          key: `chat-${chat.chat_id}`,
          chat,
          highlights: nameHighlights(chat.display_name, query),
        })),
    },
    {
      key: 'messages',
      label: 'browse.search.messages',
      options: [
        ...(blank ? [] : messages).map(
          (result): SearchOption => ({ kind: 'message', key: `message-${result.message.id}`, result }),
        ),
        ...(!blank && moreMessages ? [{ kind: 'more', key: 'more' } as const] : []),
      ],
    },
  ];
  return groups.filter((g) => g.options.length > 0);
}

export const flattenGroups = (groups: readonly SearchGroup[]): SearchOption[] =>
  groups.flatMap((g) => g.options);

export type NavigationKey = 'ArrowDown' | 'ArrowUp';

export const isNavigationKey = (key: string): key is NavigationKey =>
  key === 'ArrowDown' || key === 'ArrowUp';

/** The option index after ↓ or ↑; -1 (none) for an empty list; from none, ↓ goes to the first, ↑ the last. */
export function moveActive(current: number, key: NavigationKey, count: number): number {
  if (count === 0) return -1;
  if (key === 'ArrowDown') return current < 0 || current >= count - 1 ? 0 : current + 1;
  return current <= 0 || current >= count ? count - 1 : current - 1;
}

/** Where the active option is after the results change: the same one if still there, else the first. */
export function keepActive(options: readonly { key: string }[], activeKey: string | null): string | null {
  if (activeKey && options.some((o) => o.key === activeKey)) return activeKey;
  return options[0]?.key ?? null;
}
