import {
  appStatsSchema,
  profileListItemSchema,
  profileUpdateResultSchema,
  profileUpdateSchema,
  publicProfileSchema,
} from '@parley/protocol';
import { z } from 'zod';
import type { ApiRoute, ApiSection } from '../../platform/openapi';

// The published description of profiles' routes (profiles.routes.ts): see src/api-catalog.ts.

const update = (method: 'PUT' | 'POST'): ApiRoute => ({
  method,
  path: '/api/users/profile/update/',
  summary: 'Change your name, bio and picture',
  description: 'JSON, or multipart/form-data with the same fields and an `image` file.',
  auth: 'token',
  body: profileUpdateSchema,
  responses: { 200: profileUpdateResultSchema },
  errors: [413, 415, 429],
});

export const profilesApi: ApiSection = {
  tag: 'Profiles',
  description: "People's public profiles and the site's counts.",
  routes: [
    {
      method: 'GET',
      path: '/api/profiles',
      summary: 'Public profiles',
      auth: 'none',
      responses: { 200: z.array(profileListItemSchema) },
    },
    {
      method: 'GET',
      path: '/api/stats',
      summary: "The site's counts",
      auth: 'none',
      responses: { 200: appStatsSchema },
    },
    {
      method: 'GET',
      path: '/api/users/@:username/',
      summary: "A person's public profile (a signed-in owner also sees their hidden one)",
      auth: 'none',
      responses: { 200: publicProfileSchema },
      errors: [404],
    },
    update('PUT'),
    update('POST'),
  ],
};
