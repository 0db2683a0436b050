import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

/** DELETE /api/users/account/delete/ → 200 or 204; every session of the account ends. */
export const deleteAccount = (): Promise<unknown> => api.delete('/users/account/delete/');

export const useDeleteAccount = () => useMutation({ mutationFn: deleteAccount });
