import {
  followedThreadsSchema,
  forwardRequestSchema,
  httpMessageSchema,
  messageEditSchema,
  messageSchema,
  messagesQuerySchema,
  reactionSchema,
  threadPageSchema,
  threadQuerySchema,
  threadsQuerySchema,
} from '@parley/protocol';
import { z } from 'zod';
import { type ApiSection, idParams } from '../../platform/openapi';

// The published description of messages' routes (messages.routes.ts): see src/api-catalog.ts.

const messageParams = idParams('messageId');
const reactionsAnswer = z.object({ message_id: z.number().int(), reactions: z.array(reactionSchema) });

export const messagesApi: ApiSection = {
  tag: 'Messages',
  description:
    "A chat's history, sending over HTTP, edits, deletions, reactions, forwarding and threads. People in the web app send on the room socket; scripts and bots POST here.",
  routes: [
    {
      method: 'GET',
      path: '/api/chats/:chatId/messages/',
      summary: "A page of a chat's history (100 at most), newest first, or after a message id",
      auth: 'token',
      query: messagesQuerySchema,
      responses: { 200: z.array(messageSchema) },
    },
    {
      method: 'POST',
      path: '/api/chats/:chatId/messages/',
      summary: 'Send a message: 201 with the stored message, 200 with the original for a repeated client_id',
      description:
        "The socket's rules, rate limit and fan-out: members only, at most 4096 characters, `client_id` makes a retry safe.",
      auth: 'token',
      body: httpMessageSchema,
      responses: { 201: messageSchema, 200: messageSchema },
      errors: [429],
    },
    {
      method: 'PATCH',
      path: '/api/chats/:chatId/messages/:messageId/',
      summary: 'Edit one of your messages',
      auth: 'token',
      params: messageParams,
      body: messageEditSchema,
      responses: { 200: messageSchema },
      errors: [409],
    },
    {
      method: 'DELETE',
      path: '/api/chats/:chatId/messages/:messageId/',
      summary: "Delete a message for everyone (its sender, or a group's admin)",
      auth: 'token',
      params: messageParams,
      responses: { 204: null },
    },
    {
      method: 'DELETE',
      path: '/api/chats/:chatId/messages/:messageId/preview/',
      summary: "Remove a message's link preview (its sender)",
      auth: 'token',
      params: messageParams,
      responses: { 204: null },
    },
    {
      method: 'POST',
      path: '/api/chats/:chatId/messages/:messageId/forward/',
      summary: 'Forward a message to up to five chats',
      auth: 'token',
      params: messageParams,
      body: forwardRequestSchema,
      responses: { 200: z.array(messageSchema) },
      errors: [409, 429],
    },
    {
      method: 'PUT',
      path: '/api/chats/:chatId/messages/:messageId/played/',
      summary: 'Mark a voice message sent to you as played',
      auth: 'token',
      params: messageParams,
      responses: { 204: null },
    },
    {
      method: 'GET',
      path: '/api/chats/:chatId/messages/:messageId/edits/',
      summary: "A message's earlier versions, oldest first (when each was replaced)",
      auth: 'token',
      params: messageParams,
      responses: { 200: z.array(z.object({ body: z.string(), edited_at: z.string() })) },
    },
    {
      method: 'GET',
      path: '/api/chats/:chatId/messages/:messageId/thread/',
      summary: "A page of a thread's replies, oldest first",
      auth: 'token',
      params: messageParams,
      query: threadQuerySchema,
      responses: { 200: threadPageSchema },
    },
    {
      method: 'PUT',
      path: '/api/chats/:chatId/messages/:messageId/follow/',
      summary: 'Follow a thread',
      auth: 'token',
      params: messageParams,
      responses: { 204: null },
    },
    {
      method: 'DELETE',
      path: '/api/chats/:chatId/messages/:messageId/follow/',
      summary: 'Stop following a thread',
      auth: 'token',
      params: messageParams,
      responses: { 204: null },
    },
    {
      method: 'GET',
      path: '/api/threads/',
      summary: 'The threads you follow, newest activity first',
      auth: 'token',
      query: threadsQuerySchema,
      responses: { 200: followedThreadsSchema },
    },
    {
      method: 'PUT',
      path: '/api/chats/:chatId/messages/:messageId/reactions/:emoji/',
      summary: 'React with one emoji: the reactions as they stand',
      auth: 'token',
      params: messageParams,
      responses: { 200: reactionsAnswer },
      errors: [400, 409],
    },
    {
      method: 'DELETE',
      path: '/api/chats/:chatId/messages/:messageId/reactions/:emoji/',
      summary: 'Take a reaction back: the reactions as they stand',
      auth: 'token',
      params: messageParams,
      responses: { 200: reactionsAnswer },
      errors: [400],
    },
  ],
};
