import {
  messageSearchQuerySchema,
  messageSearchResponseSchema,
  profileListItemSchema,
  userSearchQuerySchema,
} from '@parley/protocol';
import { z } from 'zod';
import type { ApiSection } from '../../platform/openapi';

// The published description of search's routes (search.routes.ts): see src/api-catalog.ts.

export const searchApi: ApiSection = {
  tag: 'Search',
  description: 'Messages in your chats, and people.',
  routes: [
    {
      method: 'GET',
      path: '/api/search/messages/',
      summary: 'Search the messages of your chats',
      auth: 'token',
      query: messageSearchQuerySchema,
      responses: { 200: messageSearchResponseSchema },
    },
    {
      method: 'GET',
      path: '/api/users/search/',
      summary: 'Search people by name or username',
      auth: 'token',
      query: userSearchQuerySchema,
      responses: { 200: z.array(profileListItemSchema) },
    },
  ],
};
