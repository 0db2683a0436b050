import type { ChatMember } from '@parley/protocol';
import { useMemo } from 'react';
import { insertMention, type MentionCandidate, mentionQuery, suggestMembers } from '../lib/mentions';
import { useSuggestionList } from './use-suggestion-list';

// The composer's @ suggestions: members matching the name typed before the caret, chosen with
// ↑/↓ and Enter or Tab, closed with Escape (use-suggestion-list).

export function useMentionSuggestions(
  members: ChatMember[],
  meId: number,
  text: string,
  caret: number,
  apply: (next: { text: string; caret: number }) => void,
) {
  const query = mentionQuery(text, caret);
  const candidates = useMemo(
    () => (query ? suggestMembers(members, query.query, meId) : []),
    [members, meId, query?.query, query],
  );
  return useSuggestionList<MentionCandidate>(query, candidates, (candidate) => {
    if (query) apply(insertMention(text, query, candidate.username));
  });
}

export type MentionSuggestions = ReturnType<typeof useMentionSuggestions>;
