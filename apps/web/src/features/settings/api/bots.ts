import {
  type Bot,
  type BotCommand,
  type BotCommandCreate,
  type BotCreate,
  type BotCredentials,
  type BotDelivery,
  type BotUpdate,
  botCommandListSchema,
  botCommandSchema,
  botCredentialsSchema,
  botDeliveryListSchema,
  botListSchema,
  botSchema,
} from '@parley/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

export const botsQueryKey = ['bots'] as const;
const deliveriesKey = (botId: number) => ['bots', botId, 'deliveries'] as const;

/** GET /api/bots/ → the person's own bots. */
export const useBots = () =>
  useQuery({
    queryKey: botsQueryKey,
    queryFn: async (): Promise<Bot[]> => botListSchema.parse(await api.get('/bots/')).results,
  });

/** GET /api/bots/{id}/deliveries/ → the last 50 attempts to reach its events address, newest first. */
export const useBotDeliveries = (botId: number, enabled: boolean) =>
  useQuery({
    queryKey: deliveriesKey(botId),
    enabled,
    queryFn: async (): Promise<BotDelivery[]> =>
      botDeliveryListSchema.parse(await api.get(`/bots/${botId}/deliveries/`)).results,
  });

function useBotMutation<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: botsQueryKey }),
  });
}

/** POST /api/bots/ → the bot, its token and its signing secret (shown once). */
export const useCreateBot = () =>
  useBotMutation(
    async (input: BotCreate): Promise<BotCredentials> =>
      botCredentialsSchema.parse(await api.post('/bots/', input)),
  );

/** PATCH /api/bots/{id}/. */
export const useUpdateBot = () =>
  useBotMutation(
    async ({ id, changes }: { id: number; changes: BotUpdate }): Promise<Bot> =>
      botSchema.parse(await api.request(`/bots/${id}/`, { method: 'PATCH', body: changes })),
  );

/** POST /api/bots/{id}/tokens/ → a new token and signing secret; the old ones stop working. */
export const useRotateBot = () =>
  useBotMutation(
    async (id: number): Promise<BotCredentials> =>
      botCredentialsSchema.parse(await api.post(`/bots/${id}/tokens/`)),
  );

/** DELETE /api/bots/{id}/. */
export const useDeleteBot = () => useBotMutation((id: number) => api.delete(`/bots/${id}/`));

const commandsKey = (botId: number) => ['bots', botId, 'commands'] as const;

/** GET /api/bots/{id}/commands/ → the slash commands the bot answers. */
export const useBotCommands = (botId: number) =>
  useQuery({
    queryKey: commandsKey(botId),
    queryFn: async (): Promise<BotCommand[]> =>
      botCommandListSchema.parse(await api.get(`/bots/${botId}/commands/`)).results,
  });

function useCommandsMutation<I, O>(botId: number, call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: commandsKey(botId) }),
  });
}

/** POST /api/bots/{id}/commands/ (a name it has already is replaced). */
export const useAddBotCommand = (botId: number) =>
  useCommandsMutation(
    botId,
    async (input: BotCommandCreate): Promise<BotCommand> =>
      botCommandSchema.parse(await api.post(`/bots/${botId}/commands/`, input)),
  );

/** DELETE /api/bots/{id}/commands/{command}/. */
export const useRemoveBotCommand = (botId: number) =>
  useCommandsMutation(botId, (command: string) =>
    api.delete(`/bots/${botId}/commands/${encodeURIComponent(command)}/`),
  );
