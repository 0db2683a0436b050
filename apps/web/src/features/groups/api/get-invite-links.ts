import type { GroupInvite, GroupInviteList } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

export const inviteLinkKeys = {
  of: (chatId: string) => ['group-invites', chatId] as const,
};

/** GET /api/chats/{chat_id}/invites/ → the group's links still usable, newest first (its inviters only). */
export const getInviteLinks = async (chatId: string): Promise<GroupInvite[]> =>
  (await api.get<GroupInviteList>(`/chats/${encodeURIComponent(chatId)}/invites/`)).results;

export const useInviteLinks = (chatId: string) =>
  useQuery({ queryKey: inviteLinkKeys.of(chatId), queryFn: () => getInviteLinks(chatId) });
