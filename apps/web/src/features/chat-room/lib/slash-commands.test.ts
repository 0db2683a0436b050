import { type ChatCommand, SHRUG } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { formatBody } from '../../../lib/text/rich-text/format';
import { commandQuery, insertCommand, sendKindOf, suggestCommands } from './slash-commands';

const cmd = (command: string): ChatCommand => ({ command, usage: `/${command}`, description: '', bot: null });

describe('slash commands in the composer', () => {
  it('suggests while the name is typed, and not once a space follows it', () => {
    expect(commandQuery('/', 1)).toEqual({ start: 0, query: '' });
    expect(commandQuery('/Sh', 3)).toEqual({ start: 0, query: 'sh' });
    expect(commandQuery('/shrug ', 7)).toBeNull();
    expect(commandQuery('hi /sh', 6)).toBeNull();
    expect(commandQuery('/sh', 1)).toEqual({ start: 0, query: '' });
  });

  it('lists names that start with the typed text first, then those holding it', () => {
    const all = ['me', 'shrug', 'mute', 'deploy-me'].map(cmd);
    expect(suggestCommands(all, 'mu').map((c) => c.command)).toEqual(['mute']);
    expect(suggestCommands(all, 'me').map((c) => c.command)).toEqual(['me', 'deploy-me']);
    expect(suggestCommands(all, '')).toHaveLength(4);
  });

  it('puts the picked name in place of the typed one, keeping what follows', () => {
    expect(insertCommand('/sh', 3, 'shrug')).toEqual({ text: '/shrug ', caret: 7 });
    expect(insertCommand('/sh so it goes', 3, 'shrug')).toEqual({ text: '/shrug so it goes', caret: 7 });
  });

  it('runs a command, and sends a path or a doubled slash as a message', () => {
    expect(sendKindOf('/shrug ok')).toEqual({ kind: 'command', text: '/shrug ok' });
    expect(sendKindOf('/usr/bin is a path')).toEqual({ kind: 'message', text: '/usr/bin is a path' });
    expect(sendKindOf('//shrug')).toEqual({ kind: 'message', text: '/shrug' });
    expect(sendKindOf('hello /me')).toEqual({ kind: 'message', text: 'hello /me' });
  });

  it("draws /shrug's shrug as typed, with no italics nor lost backslash", () => {
    expect(formatBody(`so it goes ${SHRUG}`)).toEqual([{ type: 'text', text: `so it goes ${SHRUG}` }]);
    expect(SHRUG.replace('\u2060', '')).toBe('¯\\_(ツ)_/¯');
  });
});
