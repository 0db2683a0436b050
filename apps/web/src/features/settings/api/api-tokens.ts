import {
  type ApiToken,
  type ApiTokenCreate,
  type ApiTokenCreated,
  apiTokenCreatedSchema,
  apiTokenListSchema,
} from '@parley/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

const tokensKey = ['api-tokens'] as const;

/** GET /api/users/tokens/ → the person's tokens still usable, newest first, without their secrets. */
export const useApiTokens = () =>
  useQuery({
    queryKey: tokensKey,
    queryFn: async (): Promise<ApiToken[]> =>
      apiTokenListSchema.parse(await api.get('/users/tokens/')).results,
  });

/** POST /api/users/tokens/ → the token and its secret, this once. */
export const useCreateApiToken = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ApiTokenCreate): Promise<ApiTokenCreated> =>
      apiTokenCreatedSchema.parse(await api.post('/users/tokens/', input)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
};

/** DELETE /api/users/tokens/{id}/ → 204; the token stops working at once, its sockets close. */
export const useRevokeApiToken = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`/users/tokens/${id}/`),
    onSuccess: (_, id) =>
      queryClient.setQueryData<ApiToken[]>(tokensKey, (old) => old?.filter((t) => t.id !== id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
};
