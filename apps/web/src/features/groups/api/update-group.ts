import type { ChatDetail, Posting, Visibility } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { inviteLinkKeys } from './get-invite-links';
import { storeGroup } from './group-cache';

export interface GroupChanges {
  group_name: string;
  description: string;
  /** 'public' lists the group in the directory and lets anyone join; 'private' keeps it to its members. */
  visibility: Visibility;
  /** 'admins' makes it an announcement channel. */
  posting: Posting;
  /** A new picture (an image of at most 2 MB), or none to keep the current one. */
  image: File | null;
}

/** PATCH /api/chats/{chat_id}/ (multipart; admin only, 403 otherwise) → the updated group. */
export function updateGroup(chatId: string, changes: GroupChanges): Promise<ChatDetail> {
  const form = new FormData();
  form.append('group_name', changes.group_name);
  form.append('description', changes.description);
  form.append('visibility', changes.visibility);
  form.append('posting', changes.posting);
  if (changes.image) form.append('image', changes.image, changes.image.name);
  return api.request<ChatDetail>(`/chats/${encodeURIComponent(chatId)}/`, { method: 'PATCH', body: form });
}

export const useUpdateGroup = (chatId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: GroupChanges) => updateGroup(chatId, changes),
    onSuccess: (detail) => {
      storeGroup(queryClient, detail);
      // A group made private loses the links its plain members made.
      void queryClient.invalidateQueries({ queryKey: inviteLinkKeys.of(chatId) });
    },
  });
};
