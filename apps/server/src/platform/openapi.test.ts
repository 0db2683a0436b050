import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ApiSection, errorsOf, idParams, openApiDocument } from './openapi';

// The document generator on a small catalog of its own: paths, parameters, auth, bodies and answers from zod,
// the refusals implied, shared and input/output components, and a valid OpenAPI 3.1 result.

const thingSchema = z.object({ id: z.number().int(), name: z.string(), tags: z.array(z.string()) });
const thingCreateSchema = z.object({ name: z.string().trim().min(1), quiet: z.boolean().default(false) });
const unusedSchema = z.object({ never: z.string() });
const named = new Map<z.ZodType, string>([
  [thingSchema, 'thingSchema'],
  [thingCreateSchema, 'thingCreateSchema'],
  [unusedSchema, 'unusedSchema'],
]);

const sections: ApiSection[] = [
  {
    tag: 'Things',
    description: 'Things of a chat.',
    routes: [
      {
        method: 'GET',
        path: '/api/chats/:chatId/things/',
        summary: 'List things',
        auth: 'token',
        query: z.object({ cursor: z.string().optional(), limit: z.coerce.number().int().min(1).max(100) }),
        responses: { 200: z.object({ results: z.array(thingSchema) }) },
      },
      {
        method: 'POST',
        path: '/api/chats/:chatId/things/',
        summary: 'Make a thing',
        auth: 'token',
        body: thingCreateSchema,
        responses: { 201: thingSchema },
        errors: [429],
      },
      {
        method: 'DELETE',
        path: '/api/things/:id/',
        summary: 'Delete a thing',
        auth: 'session',
        params: idParams('id'),
        responses: { 204: null },
      },
      {
        method: 'GET',
        path: '/api/admin/things/',
        summary: 'All',
        auth: 'admin',
        responses: { 200: thingSchema },
      },
      {
        method: 'POST',
        path: '/hooks/:secret',
        summary: 'Post',
        auth: 'none',
        body: thingCreateSchema,
        alsoAccepts: [{ contentType: 'application/x-www-form-urlencoded' }],
        responses: { 200: { contentType: 'text/plain' } },
        errors: [404],
      },
    ],
    outgoing: [
      {
        name: 'thingMade',
        summary: 'A thing, POSTed to its owner',
        description: 'Signed.',
        body: thingSchema,
        answer: thingCreateSchema,
      },
    ],
  },
];

// biome-ignore lint/suspicious/noExplicitAny: the test walks the JSON document.
type Doc = any;
const doc: Doc = openApiDocument(
  sections,
  { title: 'T', version: '1', description: 'd', serverUrl: null },
  named,
);

describe('openApiDocument', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    expect(await validator.validate(doc)).toEqual({ valid: true });
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toBeUndefined();
  });

  it('writes paths with {params}, path and query parameters from zod', () => {
    const list = doc.paths['/api/chats/{chat_id}/things/'].get;
    expect(list.parameters).toEqual([
      { name: 'chat_id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'cursor', in: 'query', required: false, schema: { type: 'string' } },
      { name: 'limit', in: 'query', required: true, schema: { type: 'integer', minimum: 1, maximum: 100 } },
    ]);
    expect(doc.paths['/api/things/{id}/'].delete.parameters[0].schema).toEqual({
      type: 'integer',
      exclusiveMinimum: 0,
      maximum: 9007199254740991,
    });
  });

  it('names the protocol schemas as shared components, inlines the rest, and leaves out the unused', () => {
    const list =
      doc.paths['/api/chats/{chat_id}/things/'].get.responses['200'].content['application/json'].schema;
    expect(list.properties.results.items).toEqual({ $ref: '#/components/schemas/Thing' });
    const made = doc.paths['/api/chats/{chat_id}/things/'].post;
    expect(made.responses['201'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Thing',
    });
    expect(Object.keys(doc.components.schemas).sort()).toEqual(
      ['Error', 'FieldErrors', 'Thing', 'ThingCreateInput'].sort(),
    );
    // Answers may grow: no closed objects in what the server sends.
    expect(doc.components.schemas.Thing.additionalProperties).toBeUndefined();
  });

  it('reads a body as input: a default makes a field optional', () => {
    const body =
      doc.paths['/api/chats/{chat_id}/things/'].post.requestBody.content['application/json'].schema;
    expect(body).toEqual({ $ref: '#/components/schemas/ThingCreateInput' });
    expect(doc.components.schemas.ThingCreateInput.required).toEqual(['name']);
    const hook = doc.paths['/hooks/{secret}'].post.requestBody.content;
    expect(Object.keys(hook)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
  });

  it('says who may call: security, scope and the refusals that follow', () => {
    const list = doc.paths['/api/chats/{chat_id}/things/'].get;
    const make = doc.paths['/api/chats/{chat_id}/things/'].post;
    const remove = doc.paths['/api/things/{id}/'].delete;
    const admin = doc.paths['/api/admin/things/'].get;
    const hook = doc.paths['/hooks/{secret}'].post;
    expect(list.security).toEqual([{ session: [] }, { token: ['read'] }]);
    expect(make.security).toEqual([{ session: [] }, { token: ['write'] }]);
    expect(remove.security).toEqual([{ session: [] }]);
    expect(hook.security).toEqual([]);
    expect(Object.keys(list.responses)).toEqual(['200', '400', '401', '404']);
    expect(Object.keys(make.responses)).toEqual(['201', '400', '401', '403', '404', '429']);
    expect(Object.keys(remove.responses)).toEqual(['204', '401', '403', '404']);
    expect(Object.keys(admin.responses)).toEqual(['200', '403', '404']);
    expect(Object.keys(hook.responses)).toEqual(['200', '400', '404']);
    expect(make.responses['429'].headers['Retry-After']).toBeDefined();
    expect(make.responses['400'].content['application/json'].schema.oneOf).toHaveLength(2);
    expect(remove['x-parley-auth']).toBe('session');
  });

  it("writes what Parley POSTs to others as the document's webhooks, with the signature headers", () => {
    const made = doc.webhooks.thingMade.post;
    expect(made.parameters.map((p: { name: string }) => p.name)).toEqual([
      'X-Parley-Timestamp',
      'X-Parley-Signature',
    ]);
    expect(made.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Thing',
    });
    expect(made.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ThingCreateInput',
    });
  });

  it('counts a reading POST as a read', () => {
    const route = {
      method: 'POST',
      path: '/api/t/',
      summary: 's',
      auth: 'token',
      reading: true,
      responses: {},
    } as const;
    expect(errorsOf(route)).toEqual([401]);
    const made = openApiDocument(
      [{ tag: 'T', description: '', routes: [route] }],
      doc.info,
      new Map(),
    ) as Doc;
    expect(made.paths['/api/t/'].post.security).toEqual([{ session: [] }, { token: ['read'] }]);
  });
});
