import type { AccountDeletePayload } from '@parley/protocol';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

/**
 * DELETE /api/users/account/delete/ {password, code?} → 204; every session of the account ends. The password (and
 * a code while two-step sign-in is on) proves the owner is at the keyboard: 400 by field otherwise.
 */
export const deleteAccount = (body: AccountDeletePayload): Promise<unknown> =>
  api.request('/users/account/delete/', { method: 'DELETE', body });

export const useDeleteAccount = () => useMutation({ mutationFn: deleteAccount });
