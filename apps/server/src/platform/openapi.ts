import { z } from 'zod';
import { Components, clean, componentName, isZod, type Json, reachable } from './openapi-components';

// The published API's description (OpenAPI 3.1, whose schemas are JSON Schema 2020-12) built from the route
// catalog: each module lists its routes in its `*.api.ts` beside its `*.routes.ts`, naming the protocol's zod
// schemas they parse and answer with; this file turns that list into the document /api/openapi.json serves.
// Pure: no app, no database, so the unit tests read the document it makes.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route:
 * - `none`: anyone (the request itself proves what it must, as sign-in's password or a webhook's secret);
 * - `session`: a signed-in session only; an API token gets 403 (the account's own management);
 * - `token`: a session or an API token: `read` for GET, `write` for the rest (unless `reading`);
 * - `admin`: a site admin's session; anyone else gets 404, as if the route did not exist.
 */
export type ApiAuth = 'none' | 'session' | 'token' | 'admin';

/** A body that is not JSON: a multipart upload, or whatever the route reads itself. */
export interface RawBody {
  contentType: string;
  schema?: Record<string, unknown>;
}

export interface ApiRoute {
  method: HttpMethod;
  /** The path as Fastify registers it (`/api/chats/:chatId/messages/`); the document writes `{chat_id}`. */
  path: string;
  summary: string;
  description?: string;
  auth: ApiAuth;
  /** For a `token` route that is not a GET but only reads (a socket ticket): a `read` token will do. */
  reading?: boolean;
  /** Path parameters' schemas; a parameter not named here is a string. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** The JSON body the route parses (400 with the fields' messages when it does not fit). */
  body?: z.ZodType | RawBody;
  /** Other encodings the route also takes (a Slack-style form beside JSON). */
  alsoAccepts?: RawBody[];
  /** Success answers: status → the protocol's schema, `null` for no body, or a content type for a file. */
  responses: Record<number, z.ZodType | null | { contentType: string; description?: string }>;
  /** Refusals besides those the auth and parameters imply (400, 401, 403, 404 are added by themselves). */
  errors?: number[];
}

/** One module's routes and the tag they are shown under. */
export interface ApiSection {
  tag: string;
  description: string;
  routes: ApiRoute[];
  /** What Parley POSTs to others (a bot's events and commands): OpenAPI 3.1's `webhooks`. */
  outgoing?: ApiOutgoing[];
}

/** A signed POST Parley makes to an address its owner gave. */
export interface ApiOutgoing {
  name: string;
  summary: string;
  description: string;
  /** What Parley sends (read as an output). */
  body: z.ZodType;
  /** What Parley reads of a 2xx answer (read as an input), if anything. */
  answer?: z.ZodType;
}

const SIGNATURE_HEADERS = [
  {
    name: 'X-Parley-Timestamp',
    in: 'header',
    required: true,
    description: 'When Parley signed the request, in Unix seconds.',
    schema: { type: 'string' },
  },
  {
    name: 'X-Parley-Signature',
    in: 'header',
    required: true,
    description:
      '`v1=` and the hex HMAC-SHA256 of `{X-Parley-Timestamp}.{raw body}` with the signing secret.',
    schema: { type: 'string', pattern: '^v1=[0-9a-f]{64}$' },
  },
];

const ERROR_TEXT: Record<number, string> = {
  400: 'The request does not fit: `{detail}`, or `{field: [messages]}` for a form',
  401: 'No credentials, or an expired or revoked one',
  403: 'Not allowed (an API token where only a signed-in session may act, a read token that writes, a rule)',
  404: 'Not found, or not visible to the caller',
  409: 'The state forbids it now (already done, closed, taken)',
  410: 'Gone',
  413: 'Too large',
  415: 'Unsupported file type',
  422: 'Understood but refused',
  429: 'Too many requests: wait for `Retry-After` seconds',
  502: 'The remote end did not answer well',
  503: 'The database or a dependency is unavailable: try again after `Retry-After` seconds',
  507: 'The server is out of storage',
};

/** A path parameter as the API's JSON writes its fields: `chatId` → `chat_id`. */
export const paramName = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** The route's path as the document writes it: `/api/chats/:chatId/` → `/api/chats/{chat_id}/`. */
export const openApiPath = (path: string) =>
  path.replace(/:(\w+)/g, (_, name: string) => `{${paramName(name)}}`);
const operationId = (route: ApiRoute) =>
  (route.method.toLowerCase() +
    route.path
      .replace(/^\/api\//, '/')
      .split(/[/:@{}.-]+/)
      .filter(Boolean)
      .map((part) => part[0]?.toUpperCase() + part.slice(1))
      .join('')) as string;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function securityOf(route: ApiRoute): Json[] | undefined {
  const scope = route.method === 'GET' || route.reading ? 'read' : 'write';
  switch (route.auth) {
    case 'none':
      return [];
    case 'session':
    case 'admin':
      return [{ session: [] }];
    case 'token':
      return [{ session: [] }, { token: [scope] }];
  }
}

const AUTH_TEXT: Record<ApiAuth, (scope: string) => string> = {
  none: () => 'No credentials needed.',
  session: () => 'A signed-in session only: an API token is refused with 403.',
  token: (scope) => `A signed-in session, or an API token with the \`${scope}\` scope.`,
  admin: () => "A site admin's session; an API token is refused with 403, anyone else answered 404.",
};

/** The refusals a route can answer: its own, and those its auth, parameters and body imply. */
export function errorsOf(route: ApiRoute): number[] {
  const codes = new Set(route.errors ?? []);
  if (route.body && isZod(route.body)) codes.add(400);
  if (route.query) codes.add(400);
  // A site admin's route answers 404 to anyone else, a missing credential included, and 403 to a token.
  if (route.auth === 'session' || route.auth === 'token') codes.add(401);
  if (route.auth === 'session' || route.auth === 'admin') codes.add(403);
  if (route.auth === 'token' && route.method !== 'GET' && !route.reading) codes.add(403);
  if (route.auth === 'admin' || /:\w/.test(route.path)) codes.add(404);
  return [...codes].sort((a, b) => a - b);
}

function errorResponse(code: number): Json {
  const description = ERROR_TEXT[code] ?? 'Refused';
  const schema = code === 400 ? { oneOf: [ref('Error'), ref('FieldErrors')] } : ref('Error');
  const headers =
    code === 429 || code === 503
      ? { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } } }
      : undefined;
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } };
}

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  /** The server's public address (PUBLIC_URL), or null to let the reader's own origin stand. */
  serverUrl: string | null;
}

/**
 * The OpenAPI 3.1 document of `sections`. `named` maps the protocol's exported schemas to their export names
 * (`messageSchema` → component `Message`); anything else a route uses is named after the route.
 */
export function openApiDocument(
  sections: ApiSection[],
  info: DocumentInfo,
  named: Map<z.ZodType, string>,
): Json {
  const components = new Components(
    new Map([...named].map(([schema, name]) => [schema, componentName(name)])),
  );
  // Routes first register what they use, then the paths are written with the final (input/output) names.
  const uses = sections.flatMap((section) =>
    section.routes.map((route) => {
      const id = operationId(route);
      const use = (schema: z.ZodType | undefined, what: string) =>
        schema ? components.use(schema, `${id[0]?.toUpperCase()}${id.slice(1)}${what}`) : undefined;
      return {
        section,
        route,
        id,
        body: isZod(route.body) ? use(route.body, 'Body') : undefined,
        answers: Object.fromEntries(
          Object.entries(route.responses).map(([status, answer]) => [
            status,
            isZod(answer) ? use(answer, `Response${status}`) : undefined,
          ]),
        ),
      };
    }),
  );
  const outgoing = sections.flatMap((section) =>
    (section.outgoing ?? []).map((out) => ({
      out,
      tag: section.tag,
      body: components.use(out.body, `${componentName(out.name)}Request`),
      answer: out.answer ? components.use(out.answer, `${componentName(out.name)}Answer`) : undefined,
    })),
  );
  const { schemas, inputName } = components.build();
  /** A named schema by reference; one the protocol does not name, inline. */
  const schemaOf = (id: string): Json => (components.anonymous.has(id) ? (schemas[id] as Json) : ref(id));

  const paths: Record<string, Record<string, Json>> = {};
  for (const { section, route, id, body, answers } of uses) {
    const parameters = [
      ...[...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
        name: paramName(name as string),
        in: 'path',
        required: true,
        schema: paramSchema(route.params, name as string),
      })),
      ...Object.entries(route.query?.shape ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: !(schema as z.ZodType).safeParse(undefined).success,
        schema: inline(schema as z.ZodType, 'input'),
      })),
    ];
    const responses: Json = {};
    for (const [status, answer] of Object.entries(route.responses)) {
      const answerId = answers[status];
      if (answerId)
        responses[status] = {
          description: 'OK',
          content: { 'application/json': { schema: schemaOf(answerId) } },
        };
      else if (answer && !isZod(answer))
        responses[status] = {
          description: answer.description ?? 'OK',
          content: { [answer.contentType]: {} },
        };
      else responses[status] = { description: 'No content' };
    }
    for (const code of errorsOf(route)) responses[String(code)] = errorResponse(code);
    const scope = route.method === 'GET' || route.reading ? 'read' : 'write';
    const operation: Json = {
      operationId: id,
      tags: [section.tag],
      summary: route.summary,
      description: [route.description, `**Auth:** ${AUTH_TEXT[route.auth](scope)}`]
        .filter(Boolean)
        .join('\n\n'),
      'x-parley-auth': route.auth,
      security: securityOf(route),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: bodyContent(route, body ? schemaOf(inputName(body)) : undefined),
            },
          }
        : {}),
      responses,
    };
    const path = openApiPath(route.path);
    paths[path] ??= {};
    (paths[path] as Record<string, Json>)[route.method.toLowerCase()] = operation;
  }

  schemas.Error = {
    type: 'object',
    description: 'A refusal: `detail` says why, in words fit to show.',
    properties: { detail: { type: 'string' } },
    required: ['detail'],
  };
  schemas.FieldErrors = {
    type: 'object',
    description: "A form's refusal: each field's messages, the first to show beside the field.",
    additionalProperties: { type: 'array', items: { type: 'string' } },
  };
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const webhooks = Object.fromEntries(
    outgoing.map(({ out, tag, body, answer }) => [
      out.name,
      {
        post: {
          operationId: out.name,
          tags: [tag],
          summary: out.summary,
          description: out.description,
          parameters: SIGNATURE_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: schemaOf(body) } } },
          responses: {
            '200': answer
              ? {
                  description: 'Read by Parley',
                  content: { 'application/json': { schema: schemaOf(inputName(answer)) } },
                }
              : { description: 'Any 2xx answer is a delivery' },
          },
        },
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    tags: sections.map(({ tag, description }) => ({ name: tag, description })),
    paths: sortedPaths,
    ...(outgoing.length > 0 ? { webhooks } : {}),
    components: {
      securitySchemes: {
        session: {
          type: 'http',
          scheme: 'bearer',
          description: 'The session token that signing in (`POST /api/users/login/`) answers with.',
        },
        token: {
          type: 'http',
          scheme: 'bearer',
          description:
            "A personal access token (`prl_…`, `POST /api/users/tokens/`) or a bot's token; its scopes are `read` (GET routes) and `write` (sending and changing).",
        },
      },
      schemas: reachable(
        { paths: sortedPaths, webhooks, errors: [ref('Error'), ref('FieldErrors')] },
        schemas,
      ),
    },
  };
}

function bodyContent(route: ApiRoute, schema: Json | undefined): Json {
  const content: Json = {};
  if (schema) content['application/json'] = { schema };
  for (const raw of [route.body, ...(route.alsoAccepts ?? [])])
    if (raw && !isZod(raw)) content[raw.contentType] = { schema: raw.schema ?? {} };
  return content;
}

function inline(schema: z.ZodType, io: 'input' | 'output'): Json {
  return clean(z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json);
}

function paramSchema(params: z.ZodObject | undefined, name: string): Json {
  const schema = params?.shape[name] as z.ZodType | undefined;
  return schema ? inline(schema, 'input') : { type: 'string' };
}

/** Path parameters that are database ids (positive integers); the others stay strings. */
export const idParams = (...names: string[]): z.ZodObject =>
  z.object(Object.fromEntries(names.map((name) => [name, z.number().int().positive()])));
