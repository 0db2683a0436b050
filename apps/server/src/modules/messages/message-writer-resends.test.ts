import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../platform/errors';
import { idsOf, useWriterHarness } from '../../test-support/writer-harness';

// The writer's resends by client_id and attached files, over the same harness as message-writer.test.ts.

const setUp = useWriterHarness();

describe('MessageWriter: resends by client_id', () => {
  it('answers a resend in a later batch with the stored message, stores nothing, and publishes it again', async () => {
    const t = await setUp();
    const first = await t.send(t.ada, t.pair, 'hello', { clientId: 'k1' });
    const again = await t.send(t.ada, t.pair, 'hello', { clientId: 'k1' });
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, message: { id: first.message.id, body: 'hello' } });
    expect(again.message.client_id).toBe('k1');
    expect(await t.stored(t.pair)).toEqual([{ id: first.message.id, body: 'hello' }]);
    expect(t.log).toEqual(['begin', 'commit', 'publish hello', 'begin', 'commit', 'publish hello (resend)']);
    expect(t.published[1]).toMatchObject({ resend: true, clientId: 'k1', memberIds: [t.ada, t.grace] });
  });

  it('stores a resend within one batch once, and answers the copy with the first', async () => {
    const t = await setUp();
    const [first, copy] = await Promise.all([
      t.send(t.ada, t.pair, 'hello', { clientId: 'k1' }),
      t.send(t.ada, t.pair, 'hello', { clientId: 'k1' }),
    ]);
    expect(first?.created).toBe(true);
    expect(copy).toMatchObject({ created: false, message: { id: first?.message.id } });
    expect((await t.stored(t.pair)).map((m) => m.body)).toEqual(['hello']);
  });

  it('tells resends apart by sender and chat: the same client_id of another sender or chat is a new message', async () => {
    const t = await setUp();
    const written = await Promise.all([
      t.send(t.ada, t.pair, 'a', { clientId: 'k1' }),
      t.send(t.grace, t.pair, 'g', { clientId: 'k1' }),
      t.send(t.ada, t.group, 'a elsewhere', { clientId: 'k1' }),
    ]);
    expect(written.map((w) => w.created)).toEqual([true, true, true]);
    expect(new Set(idsOf(written)).size).toBe(3);
  });
});

describe('MessageWriter: attached files', () => {
  it('claims and attaches the files of a message, and shows them on it', async () => {
    const t = await setUp();
    t.attachments.claimableIds.add(1).add(2);
    const written = await t.send(t.ada, t.pair, 'two files', { fileIds: [1, 2, 1] });
    expect(t.attachments.claims).toEqual([[1, 2]]);
    expect(t.attachments.attached.get(written.message.id)).toEqual([1, 2, 1]);
    expect(written.message.files.map((f) => f.id)).toEqual([1, 2, 1]);
  });

  it('refuses unknown files and a file already claimed earlier in the batch, and writes the rest', async () => {
    const t = await setUp();
    t.attachments.claimableIds.add(1);
    const results = await Promise.allSettled([
      t.send(t.ada, t.pair, 'first with 1', { fileIds: [1] }),
      t.send(t.ada, t.pair, 'unknown', { fileIds: [9] }),
      t.send(t.ada, t.pair, 'second with 1', { fileIds: [1] }),
      t.send(t.ada, t.pair, 'plain'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(BadRequestError);
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(BadRequestError);
    expect(t.log).toEqual(['begin', 'commit', 'publish first with 1', 'publish plain']);
  });

  it('answers a resend of a message with files with the stored one, without claiming its files again', async () => {
    const t = await setUp();
    t.attachments.claimableIds.add(1);
    const first = await t.send(t.ada, t.pair, 'file', { clientId: 'k1', fileIds: [1] });
    const [later] = await Promise.all([t.send(t.ada, t.pair, 'file', { clientId: 'k1', fileIds: [1] })]);
    expect(later).toMatchObject({ created: false, message: { id: first.message.id } });
    expect(later?.message.files.map((f) => f.id)).toEqual([1]);
    expect(t.attachments.claims).toEqual([[1]]);

    // The same within one batch: the copy is answered with the first, its files not claimed twice.
    t.attachments.claimableIds.add(2);
    const [a, b] = await Promise.all([
      t.send(t.grace, t.pair, 'file', { clientId: 'k2', fileIds: [2] }),
      t.send(t.grace, t.pair, 'file', { clientId: 'k2', fileIds: [2] }),
    ]);
    expect(a?.created).toBe(true);
    expect(b).toMatchObject({ created: false, message: { id: a?.message.id } });
    expect(t.attachments.claims).toEqual([[1], [2]]);
  });
});
