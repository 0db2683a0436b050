import {
  type Webhook,
  type WebhookCreate,
  type WebhookCreated,
  webhookCreatedSchema,
  webhookListSchema,
} from '@parley/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

const webhooksKey = (chatId: string) => ['webhooks', chatId] as const;
const pathOf = (chatId: string) => `/chats/${encodeURIComponent(chatId)}/webhooks/`;

/** GET /api/chats/{chat_id}/webhooks/ → the chat's hooks, without their URLs (those are shown once). */
export const useWebhooks = (chatId: string) =>
  useQuery({
    queryKey: webhooksKey(chatId),
    queryFn: async (): Promise<Webhook[]> => webhookListSchema.parse(await api.get(pathOf(chatId))).results,
  });

/** POST /api/chats/{chat_id}/webhooks/ → the hook and its URL, this once. */
export const useCreateWebhook = (chatId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: WebhookCreate): Promise<WebhookCreated> =>
      webhookCreatedSchema.parse(await api.post(pathOf(chatId), input)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey(chatId) }),
  });
};

/** DELETE /api/chats/{chat_id}/webhooks/{id}/ → 204; its URL answers 404 from then on. */
export const useRevokeWebhook = (chatId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`${pathOf(chatId)}${id}/`),
    onSuccess: (_, id) =>
      queryClient.setQueryData<Webhook[]>(webhooksKey(chatId), (old) => old?.filter((h) => h.id !== id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey(chatId) }),
  });
};
