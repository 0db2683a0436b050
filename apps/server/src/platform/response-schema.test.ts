import { messageSchema } from '@parley/protocol';
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSchema } from './response-schema';

const message = {
  id: 7,
  sender: null,
  sender_name: '',
  sender_username: '',
  sender_avatar: null,
  body: 'Ada added "Grace" </script>',
  files: [{ id: 1, type: 'pdf', file: '/f/1', name: 'a.pdf', size: 3, thumbnail: null }],
  is_read: false,
  is_delivered: true,
  is_sent: true,
  is_error: false,
  kind: 'system',
  timestamp: '2026-11-25T05:00:00.000Z',
  chatroom: 'abc',
  client_id: null,
};

describe('responseSchema', () => {
  it('serialises a history page byte for byte as JSON.stringify does', () => {
    const stringify = fastJson(responseSchema(z.array(messageSchema)) as object);
    const page = [message, { ...message, id: 8, sender: 3, client_id: 'c', files: [] }];
    expect(stringify(page)).toBe(JSON.stringify(page));
  });

  it('writes nullable fields as a type list, with no validation keywords left', () => {
    const schema = responseSchema(messageSchema) as { properties: Record<string, unknown> };
    expect(schema.properties.sender).toEqual({ type: ['integer', 'null'] });
    expect(JSON.stringify(schema)).not.toMatch(/required|additionalProperties|anyOf|minimum|\$schema/);
  });

  it('drops a field the contract does not name', () => {
    const stringify = fastJson(responseSchema(messageSchema) as object);
    expect(JSON.parse(stringify({ ...message, secret: 'x' }))).not.toHaveProperty('secret');
  });
});
