import type { ProfileListItem } from '@parley/protocol';

/** The people search's answer without those already in the group, at most `limit` of them. */
export function memberCandidates(
  people: readonly ProfileListItem[],
  memberIds: ReadonlySet<number>,
  limit = 8,
): ProfileListItem[] {
  return people.filter((p) => !memberIds.has(p.id)).slice(0, limit);
}
