import * as protocol from '@parley/protocol';
import { z } from 'zod';
import { accountsApi } from './modules/accounts/accounts.api';
import { adminApi } from './modules/admin/admin.api';
import { attachmentsApi } from './modules/attachments/attachments.api';
import { botsApi } from './modules/bots/bots.api';
import { chatsApi } from './modules/chats/chats.api';
import { commandsApi } from './modules/commands/commands.api';
import { dataExportApi } from './modules/data-export/data-export.api';
import { linkPreviewsApi } from './modules/link-previews/link-previews.api';
import { messagesApi } from './modules/messages/messages.api';
import { notificationsApi } from './modules/notifications/notifications.api';
import { pinsApi } from './modules/pins/pins.api';
import { pollsApi } from './modules/polls/polls.api';
import { profilesApi } from './modules/profiles/profiles.api';
import { realtimeApi } from './modules/realtime/realtime.api';
import { reportsApi } from './modules/reports/reports.api';
import { safetyApi } from './modules/safety/safety.api';
import { savedApi } from './modules/saved/saved.api';
import { searchApi } from './modules/search/search.api';
import { webhooksApi } from './modules/webhooks/webhooks.api';
import { serverApi } from './platform/api-docs';
import { type ApiSection, openApiDocument } from './platform/openapi';

// The route catalog: what /api/openapi.json publishes and /api/docs shows, one section per module, each in its
// `<module>.api.ts` beside its `*.routes.ts`.
//
// Adding a route: add its entry to the module's `*.api.ts` (method, path as Fastify writes it, summary, auth,
// the protocol schemas of its body, query and 2xx answers, and the refusals besides those its auth, body and
// path parameters imply). A new module: write its `<module>.api.ts` and list it below. The integration test
// test/api/openapi.test.ts fails while a route under /api/ or /hooks/ has no entry, or an entry no route.

export const apiSections: ApiSection[] = [
  accountsApi,
  dataExportApi,
  profilesApi,
  chatsApi,
  messagesApi,
  pinsApi,
  pollsApi,
  savedApi,
  attachmentsApi,
  linkPreviewsApi,
  searchApi,
  safetyApi,
  reportsApi,
  notificationsApi,
  realtimeApi,
  botsApi,
  commandsApi,
  webhooksApi,
  adminApi,
  serverApi,
];

/** Sections that share a tag (pins, polls and saved with messages) are shown as one. */
function byTag(sections: ApiSection[]): ApiSection[] {
  const merged = new Map<string, ApiSection>();
  for (const section of sections) {
    const seen = merged.get(section.tag);
    if (seen) seen.routes = [...seen.routes, ...section.routes];
    else merged.set(section.tag, { ...section, routes: [...section.routes] });
  }
  return [...merged.values()];
}

/** The protocol's exported schemas by name: the document's components are named after them. */
const protocolNames = (): Map<z.ZodType, string> =>
  new Map(
    Object.entries(protocol).flatMap(([name, value]) =>
      value instanceof z.ZodType && name.endsWith('Schema') ? [[value, name] as const] : [],
    ),
  );

const DESCRIPTION = `Parley's HTTP API. Authenticate with \`Authorization: Bearer <token>\`: a session token from
signing in, or a personal access token (\`prl_…\`, made in Settings → API tokens or at
\`POST /api/users/tokens/\`) whose \`read\` scope allows GET routes and \`write\` also sending and changing
messages. Refusals are JSON: \`{"detail": "…"}\`, or for a form \`{"field": ["message", …]}\`. docs/API.md in
Parley's source walks through a token, a webhook and a bot in curl.`;

/** The OpenAPI document of every route in the catalog. */
export function apiDocument(publicUrl: string | null, version: string): Record<string, unknown> {
  return openApiDocument(
    byTag(apiSections),
    { title: 'Parley API', version, description: DESCRIPTION.replaceAll('\n', ' '), serverUrl: publicUrl },
    protocolNames(),
  );
}
