import { SAFETY_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { REPORTS_PER_HOUR } from '../../src/modules/reports/reports.service';
import { addMember, createGroup, people, seedMessages, startChat } from '../chats/chat-helpers';
import type { SignedUp, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';

// Reporting: POST /api/reports/ as the person, about someone else's message or a person; as someone
// who cannot see the message; as an outsider; its validation and its rate limit. And ReportsService as the admin
// API uses it: the list, a report with its message in context, and resolving it once.
const app = useTestApp();

const WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

const report = (t: TestApp, by: SignedUp | null, body: unknown) => t.post('/api/reports/', body, by?.token);

describe('POST /api/reports/', () => {
  it('takes a report of a message the reporter can see, confirms it and keeps the text as it read', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const [rude] = await seedMessages(t, grace.user.id, chatId, ['something rude']);

    const res = await report(t, ada, { message_id: rude, reason: 'harassment', note: '  twice today  ' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), detail: SAFETY_TEXT.reported });

    // Someone else who is not in the chat cannot report it (nor learn it exists); nor can an outsider.
    expect((await report(t, alan, { message_id: rude, reason: 'spam' })).status).toBe(404);
    expect((await report(t, null, { message_id: rude, reason: 'spam' })).status).toBe(401);
    // Nor the author their own message; a second open report of the same message is refused.
    const own = await report(t, grace, { message_id: rude, reason: 'spam' });
    expect(own.status).toBe(400);
    expect(own.body.detail).toBe(SAFETY_TEXT.cannotReportSelf);
    const again = await report(t, ada, { message_id: rude, reason: 'spam' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(SAFETY_TEXT.alreadyReported);

    // An edit after the report leaves the reported text as it was.
    await t.ctx.messages.changes.edit(grace.user.id, chatId, rude as number, 'something nice');
    const stored = await t.ctx.reports.get(res.body.id);
    expect(stored).toMatchObject({
      reason: 'harassment',
      note: 'twice today',
      status: 'open',
      reporter: { id: ada.user.id, username: ada.user.username, name: 'Ada Tester' },
      target: { id: grace.user.id, username: grace.user.username, name: 'Grace Tester' },
      message_id: rude,
      message_body: 'something rude',
      chat_id: chatId,
      resolution: null,
    });
  });

  it('takes a report of a person by username, not of oneself or of nobody', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const res = await report(t, ada, { username: grace.user.username, reason: 'spam' });
    expect(res.status, res.text).toBe(200);
    expect(await t.ctx.reports.get(res.body.id)).toMatchObject({
      target: { id: grace.user.id },
      message_id: null,
      message_body: null,
      context: [],
    });
    expect((await report(t, ada, { username: ada.user.username, reason: 'spam' })).body.detail).toBe(
      SAFETY_TEXT.cannotReportSelf,
    );
    expect((await report(t, ada, { username: 'nobody_here', reason: 'spam' })).status).toBe(404);
    expect((await report(t, ada, { username: grace.user.username, reason: 'other' })).status).toBe(409);
  });

  it('refuses a report without a reason, with an unknown reason, naming both or neither, or too long a note', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const [id] = await seedMessages(t, grace.user.id, chatId, ['hello']);

    const noReason = await report(t, ada, { message_id: id });
    expect(noReason.status).toBe(400);
    expect(noReason.body.reason).toHaveLength(1);
    const badReason = await report(t, ada, { message_id: id, reason: 'boring' });
    expect(badReason.status).toBe(400);
    expect(badReason.body.reason).toEqual(['Choose a reason.']);
    const both = await report(t, ada, { message_id: id, username: grace.user.username, reason: 'spam' });
    expect(both.status).toBe(400);
    expect(both.body.detail).toBe(SAFETY_TEXT.reportTarget);
    expect((await report(t, ada, { reason: 'spam' })).body.detail).toBe(SAFETY_TEXT.reportTarget);
    const longNote = await report(t, ada, { message_id: id, reason: 'other', note: 'x'.repeat(1001) });
    expect(longNote.status).toBe(400);
    expect(longNote.body.note).toHaveLength(1);
    expect((await report(t, ada, { message_id: -1, reason: 'spam' })).status).toBe(400);
    expect((await t.request('POST', '/api/reports/', { rawBody: '[1]', token: ada.token })).status).toBe(400);
    expect((await t.ctx.reports.list()).count).toBe(0);
  });

  it('limits a person to a few reports an hour, with a clear 429', async () => {
    const t = app();
    const [ada, ...others] = await people(t, 'Ada', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L');
    for (const other of others.slice(0, REPORTS_PER_HOUR)) {
      expect((await report(t, ada, { username: other.user.username, reason: 'spam' })).status).toBe(200);
    }
    const over = await report(t, ada, { username: others[REPORTS_PER_HOUR]?.user.username, reason: 'spam' });
    expect(over.status).toBe(429);
    expect(over.body.detail).toBe(SAFETY_TEXT.tooManyReports);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Someone else is not held back by Ada's reports.
    const [first, second] = others;
    expect(
      (await report(t, first as SignedUp, { username: second?.user.username, reason: 'spam' })).status,
    ).toBe(200);
  });

  it('is recorded in the audit log, without the message text', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const [id] = await seedMessages(t, grace.user.id, chatId, ['private words']);
    const res = await report(t, ada, { message_id: id, reason: 'inappropriate' });
    const page = await t.ctx.audit.list({ type: 'report.created' });
    expect(page.results).toHaveLength(1);
    expect(page.results[0]).toMatchObject({
      type: 'report.created',
      actor: { id: ada.user.id },
      target: { id: grace.user.id },
      detail: { report_id: res.body.id, reason: 'inappropriate', message_id: id },
    });
    expect(JSON.stringify(page.results[0])).not.toContain('private words');
  });
});

describe('ReportsService for the operator console', () => {
  it('lists reports newest first by status, gives one in context, and resolves it once', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const groupId = await createGroup(t, grace.token, 'Room');
    await addMember(t, groupId, ada.user.id);
    await addMember(t, groupId, alan.user.id);
    const ids = await seedMessages(t, grace.user.id, groupId, WORDS);
    const reported = ids[4] as number;
    const first = (await report(t, ada, { message_id: reported, reason: 'spam' })).body.id;
    const second = (await report(t, alan, { username: grace.user.username, reason: 'other', note: 'n' })).body
      .id;

    const open = await t.ctx.reports.list({ status: 'open' });
    expect(open.count).toBe(2);
    expect(open.results.map((r) => r.id)).toEqual([second, first]);
    expect(open.results[0]?.context).toBeUndefined();

    const withContext = await t.ctx.reports.get(first);
    expect(withContext.context?.map((m) => m.body)).toEqual(WORDS.slice(1));
    expect(withContext.context?.find((m) => m.id === reported)?.body).toBe('five');

    const resolved = await t.ctx.reports.resolve(first, alan.user.id, { action: 'dismiss', note: 'fine' });
    expect(resolved).toMatchObject({
      status: 'resolved',
      resolution: {
        action: 'dismiss',
        note: 'fine',
        resolved_at: expect.any(String),
        resolved_by: { id: alan.user.id },
      },
    });
    await expect(
      t.ctx.reports.resolve(first, alan.user.id, { action: 'dismiss', note: '' }),
    ).rejects.toMatchObject({
      status: 409,
    });
    await expect(
      t.ctx.reports.resolve(9999, alan.user.id, { action: 'dismiss', note: '' }),
    ).rejects.toMatchObject({
      status: 404,
    });
    await expect(t.ctx.reports.get(9999)).rejects.toMatchObject({ status: 404 });
    expect((await t.ctx.reports.list({ status: 'resolved' })).results.map((r) => r.id)).toEqual([first]);
    expect((await t.ctx.reports.list()).count).toBe(2);

    // The report outlives the message and the reporter's account, naming nobody who is gone.
    await t.ctx.messages.changes.delete(grace.user.id, groupId, reported);
    expect((await t.ctx.reports.get(first)).context?.find((m) => m.id === reported)?.is_deleted).toBe(true);
    expect((await t.deleteAccount(ada.token)).status).toBeLessThan(300);
    expect(await t.ctx.reports.get(first)).toMatchObject({ reporter: null, message_body: 'five' });
  });
});
