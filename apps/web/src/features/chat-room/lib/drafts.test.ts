import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../../lib/session/memory-storage';
import { draftKey, readDraft, writeDraft } from './drafts';

describe('drafts', () => {
  it('are kept per account and per chat', () => {
    const storage = createMemoryStorage();
    writeDraft(storage, 1, 'c1', 'half a thought');
    writeDraft(storage, 1, 'c2', 'other chat');
    expect(readDraft(storage, 1, 'c1')).toBe('half a thought');
    expect(readDraft(storage, 1, 'c2')).toBe('other chat');
    expect(readDraft(storage, 2, 'c1')).toBe('');
    expect(storage.getItem(draftKey(1, 'c1'))).toBe('half a thought');
  });

  it('blank text (a sent message) removes the draft', () => {
    const storage = createMemoryStorage();
    writeDraft(storage, 1, 'c1', 'x');
    writeDraft(storage, 1, 'c1', '  ');
    expect(storage.getItem(draftKey(1, 'c1'))).toBeNull();
  });

  it('storage that throws loses the draft, not the room', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    } as unknown as Storage;
    expect(() => writeDraft(broken, 1, 'c1', 'x')).not.toThrow();
    expect(readDraft(broken, 1, 'c1')).toBe('');
  });
});
