import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { DatabaseUnavailableError } from '../../platform/errors';
import { useWriterHarness } from '../../test-support/writer-harness';

// The writer while the database cannot be reached (a PostgreSQL restart or failover): every message of a batch
// that fails so is refused at once with a resendable DatabaseUnavailableError, none is both stored and refused,
// and the writer goes on once the database answers. Over the same harness as message-writer.test.ts; the
// outage is a connection error thrown where the database would throw it.

const setUp = useWriterHarness();

/** What node-postgres throws when a restart resets its connection. */
const connectionReset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

describe('MessageWriter: the database out of reach', () => {
  it('refuses every message of the batch at once, without trying each alone, and writes the next batch', async () => {
    const t = await setUp();
    vi.spyOn(t.chats, 'memberIdsIn').mockRejectedValueOnce(connectionReset());
    const results = await Promise.allSettled([
      t.send(t.ada, t.pair, 'a1', { clientId: 'k1' }),
      t.send(t.grace, t.pair, 'g1', { clientId: 'k2' }),
      t.send(t.ada, t.group, 'a2', { clientId: 'k3' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const r of results)
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(DatabaseUnavailableError);
    expect(t.log).toEqual(['begin', 'rollback']);
    expect(await t.stored(t.pair)).toEqual([]);

    // Back: the resends are stored, once each.
    const again = await Promise.all([
      t.send(t.ada, t.pair, 'a1', { clientId: 'k1' }),
      t.send(t.grace, t.pair, 'g1', { clientId: 'k2' }),
    ]);
    expect(again.map((w) => w.created)).toEqual([true, true]);
    expect((await t.stored(t.pair)).map((m) => m.body)).toEqual(['a1', 'g1']);
  });

  it('refuses a single message with DatabaseUnavailableError too', async () => {
    const t = await setUp();
    vi.spyOn(t.chats, 'memberIdsIn').mockRejectedValueOnce(connectionReset());
    await expect(t.send(t.ada, t.pair, 'a1')).rejects.toBeInstanceOf(DatabaseUnavailableError);
  });

  it('refuses a batch whose announcement fails after its commit, and answers each resend with the stored message', async () => {
    const t = await setUp();
    // The sender cards, read beside the transaction, are lost with the connection after the commit went through.
    vi.spyOn(t.users, 'cards').mockRejectedValueOnce(connectionReset());
    const results = await Promise.allSettled([
      t.send(t.ada, t.pair, 'a1', { clientId: 'k1' }),
      t.send(t.grace, t.pair, 'g1', { clientId: 'k2' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    for (const r of results)
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(DatabaseUnavailableError);
    expect(t.published).toEqual([]);
    const stored = await t.stored(t.pair);
    expect(stored.map((m) => m.body)).toEqual(['a1', 'g1']);

    // The senders resend, as the refusal asks: answered with what is stored, published (to the room), not copied.
    const again = await Promise.all([
      t.send(t.ada, t.pair, 'a1', { clientId: 'k1' }),
      t.send(t.grace, t.pair, 'g1', { clientId: 'k2' }),
    ]);
    expect(again.map((w) => [w.created, w.message.id])).toEqual(stored.map((m) => [false, m.id]));
    expect(await t.stored(t.pair)).toEqual(stored);
    expect(t.published.map((p) => [p.message.body, p.resend])).toEqual([
      ['a1', true],
      ['g1', true],
    ]);
  });

  it('stops trying messages alone once the database is found out of reach, refusing the rest', async () => {
    const t = await setUp();
    await sql`CREATE TRIGGER poison BEFORE INSERT ON messages WHEN NEW.body = 'poison'
      BEGIN SELECT RAISE(ABORT, 'poisoned message'); END`.execute(t.db);
    const memberIdsIn = t.chats.memberIdsIn.bind(t.chats);
    // The batch fails for its poisoned row; trying the first message alone, the database is gone.
    vi.spyOn(t.chats, 'memberIdsIn')
      .mockImplementationOnce(memberIdsIn)
      .mockRejectedValueOnce(connectionReset());
    const results = await Promise.allSettled([
      t.send(t.ada, t.pair, 'a1'),
      t.send(t.grace, t.pair, 'poison'),
      t.send(t.ada, t.group, 'a2'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const r of results)
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(DatabaseUnavailableError);
    expect(t.log).toEqual(['begin', 'rollback', 'begin', 'rollback']);
    expect(await t.stored(t.pair)).toEqual([]);
  });
});
