import { describe, expect, it } from 'vitest';
import { documentTitle } from './document-title';

describe('document title', () => {
  it('puts the unread total first and the screen name before Parley', () => {
    expect(documentTitle({ name: null, raw: false }, 0)).toBe('Parley');
    expect(documentTitle({ name: null, raw: false }, 3)).toBe('(3) Parley');
    expect(documentTitle({ name: 'Ada Lovelace', raw: false }, 3)).toBe('(3) Ada Lovelace · Parley');
    expect(documentTitle({ name: 'My Chats', raw: false }, 120)).toBe('(99+) My Chats · Parley');
  });

  it("leaves another brand's page title alone", () => {
    expect(documentTitle({ name: 'Brand · Coming soon', raw: true }, 5)).toBe('Brand · Coming soon');
  });
});
