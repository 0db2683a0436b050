import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';

// The audit log: any module records through ctx.audit, in its transaction or alone.
const app = useTestApp();

describe('audit log', () => {
  it('keeps events newest first with actor and target names, filtered by type and person', async () => {
    const a = await app().signUpAndVerify();
    const b = await app().signUpAndVerify();
    const { audit, db } = app().ctx;
    await audit.record({
      type: 'test.one',
      actor_id: a.user.id,
      target_id: b.user.id,
      detail: { note: 'x' },
    });
    await audit.record({ type: 'test.two', actor_id: b.user.id });
    await audit.record({ type: 'test.two', target_id: 999_999 });

    const all = await audit.list({});
    const mine = all.results.filter((e) => e.type.startsWith('test.'));
    expect(mine.map((e) => e.type)).toEqual(['test.two', 'test.two', 'test.one']);
    expect(mine[2]).toMatchObject({
      actor: { id: a.user.id, username: a.user.username },
      target: { id: b.user.id, username: b.user.username },
      detail: { note: 'x' },
    });
    // Somebody gone: the id stays, without a name.
    expect(mine[0]?.target).toEqual({ id: 999_999, username: null });
    expect(Date.parse(mine[0]?.at ?? '')).toBeGreaterThan(Date.now() - 60_000);

    expect((await audit.list({ type: 'test.one' })).results).toHaveLength(1);
    const ofB = await audit.list({ userId: b.user.id });
    expect(ofB.results.filter((e) => e.type.startsWith('test.')).map((e) => e.type)).toEqual([
      'test.two',
      'test.one',
    ]);

    // Inside a transaction that rolls back, nothing is kept.
    await db
      .transaction()
      .execute(async (trx) => {
        await audit.record({ type: 'test.rolled_back' }, trx);
        throw new Error('undo');
      })
      .catch(() => {});
    expect((await audit.list({ type: 'test.rolled_back' })).results).toHaveLength(0);
    expect(await audit.types()).toEqual(expect.arrayContaining(['test.one', 'test.two']));
  });

  it('pages with `next`', async () => {
    const { audit } = app().ctx;
    for (let i = 0; i < 55; i++) await audit.record({ type: 'test.page', detail: { i } });
    const first = await audit.list({ type: 'test.page' });
    expect(first.results).toHaveLength(50);
    expect(first.next).not.toBeNull();
    const second = await audit.list({ type: 'test.page', before: first.next ?? undefined });
    expect(second.results.map((e) => e.detail.i)).toEqual([4, 3, 2, 1, 0]);
    expect(second.next).toBeNull();
  });
});
