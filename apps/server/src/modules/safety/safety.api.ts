import { blockedListSchema, blockStateSchema } from '@parley/protocol';
import type { ApiSection } from '../../platform/openapi';

// The published description of safety's routes (safety.routes.ts): see src/api-catalog.ts.

export const safetyApi: ApiSection = {
  tag: 'Safety',
  description: 'Blocking people, and reporting messages and people.',
  routes: [
    {
      method: 'GET',
      path: '/api/users/blocked/',
      summary: 'The people you blocked',
      auth: 'token',
      responses: { 200: blockedListSchema },
    },
    {
      method: 'POST',
      path: '/api/users/:username/block/',
      summary: 'Block a person',
      auth: 'token',
      responses: { 200: blockStateSchema },
    },
    {
      method: 'DELETE',
      path: '/api/users/:username/block/',
      summary: 'Unblock a person',
      auth: 'token',
      responses: { 200: blockStateSchema },
    },
  ],
};
