import { z } from 'zod';
import type { ApiSection } from '../../platform/openapi';

// The published description of realtime's HTTP route (socket-auth.ts): see src/api-catalog.ts.

export const realtimeApi: ApiSection = {
  tag: 'Realtime',
  description:
    "Sockets: take a one-use ticket, then open `/ws/chatroom/{chat_id}/?ticket=…` (a room) or `/ws/notifications/?ticket=…`; their frames are the protocol's socket frames.",
  routes: [
    {
      method: 'POST',
      path: '/api/ws/ticket/',
      summary: 'A one-use ticket to open a socket with',
      auth: 'token',
      reading: true,
      responses: { 200: z.object({ ticket: z.string() }) },
      errors: [429, 503],
    },
  ],
};
