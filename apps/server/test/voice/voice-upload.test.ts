import { elfOf, m4aOf, mp3Of, oggOpusOf, pdfOf, wavOf, webmOf } from '@parley/fixtures';
import { VOICE_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { fetchPath, fileRows, uploadFiles } from '../attachments/attachment-helpers';
import { history, myChats, newClientId, people, startChat } from '../chats/chat-helpers';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { joinRoom } from '../helpers/ws-client';
import { uploadVoice, voiceFields, WAVEFORM } from './voice-helpers';

// Audio attachments and voice messages (POST /api/chats/{chat_id}/attachments/): audio told by its bytes and
// tracks, a voice message's fields checked and kept on its file, through history and forwarding.
const app = useTestApp();

async function pair(t: TestApp) {
  const [ada, grace] = await people(t, 'Ada', 'Grace');
  const chatId = await startChat(t, ada.token, grace.user.username);
  return { ada, grace, chatId };
}

describe('voice message uploads', () => {
  it('stores the file as audio with kind, duration and waveform, unplayed, and serves it inline', async () => {
    const t = app();
    const { ada, chatId } = await pair(t);
    const webm = webmOf({ ms: 3000, live: true });
    const res = await uploadVoice(t.baseUrl, ada.token, chatId, { bytes: webm });
    expect(res.status, res.text).toBe(200);
    const [file] = res.body.files;
    expect(file).toMatchObject({
      type: 'audio',
      name: 'Voice message.webm',
      size: webm.length,
      kind: 'voice',
      duration_ms: 3200,
      waveform: WAVEFORM,
      played: false,
    });
    const [row] = await fileRows(t, chatId);
    expect(row).toMatchObject({ mime: 'audio/webm', kind: 'voice', duration_ms: 3200, played_at: null });
    const served = await fetchPath(t, file.file);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('audio/webm');
    expect(served.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(served.bytes.equals(webm)).toBe(true);
  });

  it('refuses bad fields with the field named, fields after the file, and stores nothing', async () => {
    const t = app();
    const { ada, chatId } = await pair(t);
    const bytes = webmOf();
    const refusals: [Record<string, string>, Record<string, string[]>][] = [
      [voiceFields({ waveform: JSON.stringify(WAVEFORM.slice(1)) }), { waveform: [VOICE_TEXT.badWaveform] }],
      [
        voiceFields({ waveform: JSON.stringify([...WAVEFORM.slice(1), 300]) }),
        { waveform: [VOICE_TEXT.badWaveform] },
      ],
      [voiceFields({ waveform: 'loud' }), { waveform: [VOICE_TEXT.badWaveform] }],
      [voiceFields({ duration_ms: '0' }), { duration_ms: [VOICE_TEXT.badDuration] }],
      [voiceFields({ duration_ms: '900001' }), { duration_ms: [VOICE_TEXT.badDuration] }],
      [voiceFields({ kind: 'song' }), { kind: [VOICE_TEXT.badKind] }],
      [{ duration_ms: '1000' }, { kind: [VOICE_TEXT.badKind], waveform: ['This field is required.'] }],
    ];
    for (const [fields, answer] of refusals) {
      const res = await uploadVoice(t.baseUrl, ada.token, chatId, { bytes, fields });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual(answer);
    }
    const late = await uploadVoice(t.baseUrl, ada.token, chatId, { bytes, fieldsAfter: true });
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ detail: VOICE_TEXT.fieldsFirst });
    expect(await fileRows(t, chatId)).toEqual([]);
  });

  it('refuses a renamed executable or a PDF as a voice message, and an executable as any file', async () => {
    const t = app();
    const { ada, chatId } = await pair(t);
    const elf = await uploadVoice(t.baseUrl, ada.token, chatId, { bytes: elfOf() });
    expect(elf.status).toBe(415);
    const pdf = await uploadVoice(t.baseUrl, ada.token, chatId, { bytes: pdfOf(), filename: 'voice.webm' });
    expect(pdf.status).toBe(415);
    expect(pdf.body).toEqual({ detail: VOICE_TEXT.notAudio });
    const plain = await uploadFiles(t, ada.token, chatId, [{ bytes: elfOf(), filename: 'song.mp3' }]);
    expect(plain.status).toBe(415);
    expect(plain.body.detail).toMatch(/audio/);
    expect(await fileRows(t, chatId)).toEqual([]);
  });
});

describe('audio files', () => {
  it('takes MP3, WAV, Ogg/Opus, M4A and WebM as audio with their lengths; a WebM with video stays video', async () => {
    const t = app();
    const { grace, chatId } = await pair(t);
    const res = await uploadFiles(t, grace.token, chatId, [
      { bytes: mp3Of({ ms: 2000 }), filename: 'song.mp3' },
      { bytes: wavOf({ ms: 1500 }), filename: 'tone.wav' },
      { bytes: oggOpusOf({ ms: 1000 }), filename: 'note.opus' },
      { bytes: m4aOf({ ms: 1000 }), filename: 'memo.m4a' },
      { bytes: webmOf({ ms: 1200 }), filename: 'clip.webm' },
      { bytes: webmOf({ video: true }), filename: 'film.webm' },
    ]);
    expect(res.status, res.text).toBe(200);
    const files = res.body.files as { type: string; duration_ms?: number; kind?: string }[];
    expect(files.map((f) => f.type)).toEqual(['audio', 'audio', 'audio', 'audio', 'audio', 'video']);
    expect(files.map((f) => f.duration_ms)).toEqual([expect.any(Number), 1500, 994, 998, 1200, undefined]);
    expect(files.every((f) => f.kind === undefined)).toBe(true);
    const rows = await fileRows(t, chatId);
    expect(rows.map((r) => r.mime)).toEqual([
      'audio/mpeg',
      'audio/wav',
      'audio/ogg',
      'audio/mp4',
      'audio/webm',
      'video/webm',
    ]);
  });
});

describe('a voice message sent, read back and forwarded', () => {
  it('keeps its fields in the room frame, the history and a forwarded copy (which starts unplayed)', async () => {
    const t = app();
    const { ada, grace, chatId } = await pair(t);
    const [alan] = await people(t, 'Alan');
    const other = await startChat(t, ada.token, alan.user.username);
    const room = await joinRoom(t, ada.token, chatId);
    const up = await uploadVoice(t.baseUrl, ada.token, chatId, { bytes: webmOf() });
    expect(up.status, up.text).toBe(200);
    const clientId = newClientId('v');
    room.send({ type: 'chat_message', client_id: clientId, file_ids: [up.body.files[0].id] });
    const echo = await room.next('chat_message', (f) => f.client_id === clientId);
    const voice = { type: 'audio', kind: 'voice', duration_ms: 3200, waveform: WAVEFORM, played: false };
    expect(echo.message.files[0]).toMatchObject(voice);
    const [stored] = (await history(t, grace.token, chatId)).filter((m) => m.id === echo.message.id);
    expect(stored?.files[0]).toMatchObject(voice);
    // The chat list says what it is, not its file name.
    const listed = (await myChats(t, grace.token)).find((c) => c.chat_id === chatId);
    expect(listed?.last_message_files).toMatchObject({ count: 1, kind: 'voice' });

    const forwarded = await t.post(
      `/api/chats/${chatId}/messages/${echo.message.id}/forward/`,
      { to_chat_ids: [other] },
      ada.token,
    );
    expect(forwarded.status, forwarded.text).toBe(200);
    expect(forwarded.body[0].files[0]).toMatchObject(voice);
    const copy = (await history(t, alan.token, other)).find((m) => m.id === forwarded.body[0].id);
    expect(copy?.files[0]).toMatchObject(voice);
    expect(copy?.files[0].id).not.toBe(echo.message.files[0].id);
    await room.close();
  });
});
