import { pushSubscribeSchema, pushUnsubscribeSchema } from '@parley/protocol';
import { z } from 'zod';
import type { ApiSection } from '../../platform/openapi';

// The published description of notifications' routes (notifications.routes.ts): see src/api-catalog.ts.

export const notificationsApi: ApiSection = {
  tag: 'Notifications',
  description: 'Web Push subscriptions of a browser signed in.',
  routes: [
    {
      method: 'GET',
      path: '/api/push/vapid-public-key/',
      summary: "The server's VAPID public key, to subscribe with",
      auth: 'none',
      responses: { 200: z.object({ public_key: z.string() }) },
    },
    {
      method: 'POST',
      path: '/api/push/subscriptions/',
      summary: "Subscribe this browser's push endpoint",
      auth: 'session',
      body: pushSubscribeSchema,
      responses: { 201: z.object({ detail: z.string() }) },
      errors: [429],
    },
    {
      method: 'DELETE',
      path: '/api/push/subscriptions/',
      summary: 'Unsubscribe a push endpoint',
      auth: 'session',
      body: pushUnsubscribeSchema,
      responses: { 204: null },
    },
  ],
};
