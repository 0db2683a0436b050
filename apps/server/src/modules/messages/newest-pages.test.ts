import { describe, expect, it } from 'vitest';
import type { PageRow } from './messages.repo';
import { NewestPages } from './newest-pages';

const row = (id: number) => ({ id, body: `m${id}` }) as unknown as PageRow;

describe('NewestPages', () => {
  it('reads a page once while the stamp holds, and again once it changes', async () => {
    let stamp = 's1';
    let reads = 0;
    const pages = new NewestPages(() => stamp);
    const read = async () => {
      reads++;
      return [row(1), row(2)];
    };
    expect(await pages.get('c1', read)).toEqual([row(1), row(2)]);
    expect(await pages.get('c1', read)).toEqual([row(1), row(2)]);
    expect(reads).toBe(1);
    stamp = 's2';
    await pages.get('c1', read);
    expect(reads).toBe(2);
  });

  it('keeps nothing read while the stamp changed, and hands out rows no reader can change', async () => {
    let stamp = 's1';
    let reads = 0;
    const pages = new NewestPages(() => stamp);
    // A write lands while the page is being read: what was read may be from before it.
    await pages.get('c1', async () => {
      reads++;
      stamp = 's2';
      return [row(1)];
    });
    const kept = await pages.get('c1', async () => {
      reads++;
      return [row(1)];
    });
    expect(reads).toBe(2);
    // The reader that read it owns what it got; what is kept is a copy of its own.
    kept.push(row(9));
    (kept[0] as { body: string }).body = 'changed';
    const hit = await pages.get('c1', async () => []);
    expect(hit).toEqual([row(1)]);
    expect(() => {
      (hit[0] as { body: string }).body = 'changed';
    }).toThrow();
  });

  it('lets the least recently read page go past its size', async () => {
    const pages = new NewestPages(() => 's', 2);
    let reads = 0;
    const read = async () => {
      reads++;
      return [row(1)];
    };
    await pages.get('a', read);
    await pages.get('b', read);
    await pages.get('a', read);
    await pages.get('c', read); // b goes
    expect(reads).toBe(3);
    await pages.get('a', read);
    expect(reads).toBe(3);
    await pages.get('b', read);
    expect(reads).toBe(4);
  });
});
