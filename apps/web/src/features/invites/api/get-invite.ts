import type { GroupInvitePreview } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

export const inviteKeys = {
  preview: (code: string) => ['invites', code] as const,
};

/** GET /api/invites/{code}/ → the group's name, picture and member count; 404 for a link no longer usable. */
export const getInvite = (code: string): Promise<GroupInvitePreview> =>
  api.get<GroupInvitePreview>(`/invites/${encodeURIComponent(code)}/`);

export const useInvite = (code: string) =>
  useQuery({ queryKey: inviteKeys.preview(code), queryFn: () => getInvite(code) });
