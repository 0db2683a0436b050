import type { MessageSearchQuery, MessageSearchResponse, ProfileListItem } from '@parley/protocol';
import type { Db, DialectName } from '../../db/database';
import type { UsersService } from '../accounts/users.service';
import type { ChatsService } from '../chats/chats.service';
import type { MessagesService } from '../messages/messages.service';
import type { ProfilesService } from '../profiles/profiles.service';
import * as repo from './search.repo';
import { hasTerms, highlightsOf, parseSearch, toFts5, toTsquery } from './search-query';

interface Deps {
  db: Db;
  dialect: DialectName;
  chats: ChatsService;
  messages: MessagesService;
  users: UsersService;
  profiles: ProfilesService;
}

const EMPTY: MessageSearchResponse = { results: [], next_cursor: null };
const PEOPLE_LIMIT = 20;

/**
 * Search over what a person may see now: messages of the chats they are a member of (never deleted ones; an
 * edited one by its current text), and people who do not hide their profile.
 */
export class SearchService {
  constructor(private readonly deps: Deps) {}

  private match(q: string) {
    const terms = parseSearch(q);
    if (!hasTerms(terms)) return null;
    return { terms, index: this.deps.dialect === 'sqlite' ? toFts5(terms) : toTsquery(terms) };
  }

  async messagesFor(userId: number, q: MessageSearchQuery): Promise<MessageSearchResponse> {
    const match = this.match(q.q);
    // Typed something, but nothing searchable (only punctuation): nothing matches.
    if (q.q !== '' && !match) return EMPTY;
    const chatDbId = q.chat_id ? (await this.deps.chats.requireMember(userId, q.chat_id)).chat.id : undefined;
    const senderId = q.from ? await this.deps.users.activatedIdOf(q.from) : undefined;
    if (q.from && senderId === undefined) return EMPTY;
    const hits = await repo.searchMessages(this.deps.db, this.deps.dialect, {
      userId,
      match: match?.index ?? null,
      chatDbId,
      senderId,
      before: q.before,
      after: q.after,
      hasFile: q.has === 'file',
      belowId: q.cursor ? Number(q.cursor) : undefined,
      limit: q.limit,
    });
    const [messages, chats] = await Promise.all([
      this.deps.messages.viewMany(
        userId,
        hits.map((h) => ({
          id: h.id,
          chat: { id: h.chat_db_id, chat_id: h.chat_id, is_private: h.is_private },
        })),
      ),
      this.deps.chats.summaries(userId, [...new Set(hits.map((h) => h.chat_db_id))]),
    ]);
    const results = hits.flatMap((h) => {
      const message = messages.get(h.id);
      const chat = chats.get(h.chat_db_id);
      if (!message || !chat) return [];
      return [{ message, chat, highlights: match ? highlightsOf(message.body, match.terms) : [] }];
    });
    const last = hits.at(-1);
    return { results, next_cursor: hits.length === q.limit && last ? String(last.id) : null };
  }

  /** People whose username, display name or full name has a word starting with each word of `q`. */
  async people(q: string): Promise<ProfileListItem[]> {
    const terms = parseSearch(q.replaceAll('"', ' '));
    if (!hasTerms(terms)) return [];
    const index = this.deps.dialect === 'sqlite' ? toFts5(terms) : toTsquery(terms);
    const ids = await repo.searchUsers(this.deps.db, this.deps.dialect, index, PEOPLE_LIMIT);
    return this.deps.profiles.list(ids);
  }
}
