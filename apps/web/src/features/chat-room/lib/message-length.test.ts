import { MESSAGE_MAX_LENGTH } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { COUNT_FROM, messageLength, tooLongText } from './message-length';

describe('messageLength', () => {
  it('hides the count well under the limit and shows it near it', () => {
    expect(messageLength('hello')).toEqual({ count: 5, show: false, over: 0 });
    expect(messageLength('x'.repeat(COUNT_FROM - 1)).show).toBe(false);
    expect(messageLength('x'.repeat(COUNT_FROM))).toEqual({ count: COUNT_FROM, show: true, over: 0 });
    expect(messageLength('x'.repeat(MESSAGE_MAX_LENGTH)).over).toBe(0);
  });

  it('counts what the server counts: the trimmed text, in UTF-16 units', () => {
    expect(messageLength(`  ${'x'.repeat(MESSAGE_MAX_LENGTH)}\n\n `).over).toBe(0);
    expect(messageLength('😀').count).toBe(2);
  });

  it('says how far a pasted 5,000 characters are over', () => {
    const { count, over } = messageLength('y'.repeat(5000));
    expect(count).toBe(5000);
    expect(over).toBe(5000 - MESSAGE_MAX_LENGTH);
    expect(tooLongText(over)).toBe(
      'Message must be at most 4096 characters. Shorten it by 904 characters to send it.',
    );
    expect(tooLongText(1)).toMatch(/by 1 character to/);
  });
});
