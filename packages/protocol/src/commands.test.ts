import { describe, expect, it } from 'vitest';
import { botCommandCreateSchema, commandRunSchema, parseCommandText } from './commands';

describe('slash command texts', () => {
  it('reads the name in lower case and the rest, trimmed, as its arguments', () => {
    expect(parseCommandText('/Shrug  so it goes ')).toEqual({ command: 'shrug', args: 'so it goes' });
    expect(parseCommandText('/me\nwaves')).toEqual({ command: 'me', args: 'waves' });
    expect(parseCommandText('/leave')).toEqual({ command: 'leave', args: '' });
  });

  it('is not a command without a name right after the slash', () => {
    for (const text of ['shrug', '/', '/ shrug', '//shrug', '/-x', 'a /shrug', `/${'x'.repeat(33)}`])
      expect(parseCommandText(text)).toBeNull();
  });

  it('takes a command and its arguments, or the text as typed, with a client_id', () => {
    expect(commandRunSchema.parse({ command: '/Topic', args: 'Hi', client_id: 'c' })).toEqual({
      command: 'topic',
      args: 'Hi',
      client_id: 'c',
    });
    expect(commandRunSchema.parse({ text: '/mute 1h', client_id: 'c', thread_root: 4 })).toEqual({
      command: 'mute',
      args: '1h',
      client_id: 'c',
      thread_root: 4,
    });
    expect(commandRunSchema.safeParse({ text: 'hello', client_id: 'c' }).success).toBe(false);
    expect(commandRunSchema.safeParse({ text: '/me hi' }).success).toBe(false);
  });

  it('registers a bot command by a free name, without its slash', () => {
    expect(botCommandCreateSchema.parse({ command: '/Deploy', url: 'https://x.example/' })).toMatchObject({
      command: 'deploy',
      description: '',
    });
    expect(botCommandCreateSchema.safeParse({ command: 'me', url: 'https://x.example/' }).success).toBe(
      false,
    );
    expect(botCommandCreateSchema.safeParse({ command: 'a b', url: 'https://x.example/' }).success).toBe(
      false,
    );
  });
});
