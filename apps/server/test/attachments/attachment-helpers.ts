import http from 'node:http';
import { sendForm, type Upload } from '../groups/group-helpers';
import type { Json, TestApp } from '../helpers/test-app';

// What the attachment tests share: uploads as the browser sends them and fetching a served file to its last
// byte. The files themselves (PDF, DOCX as a real zip, MP4, ELF) come from @parley/fixtures.

/** POST /api/chats/{id}/attachments/ as multipart, every upload under the field `files`. */
export const uploadFiles = (t: TestApp, token: string | null, chatId: string, uploads: Upload[]) =>
  sendForm(
    t,
    'POST',
    `/api/chats/${chatId}/attachments/`,
    token,
    {},
    uploads.map((u) => ({ field: 'files', ...u })),
  );

/**
 * POST /api/chats/{id}/attachments/ with a hand-written multipart body, for file names a browser would escape
 * (quotes, control characters, Windows paths): `filename` goes into the part header as it is.
 */
export async function uploadRaw(t: TestApp, token: string, chatId: string, filename: string, bytes: Buffer) {
  const boundary = `----parley${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
    'latin1',
  );
  const body = Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1')]);
  const res = await fetch(`${t.baseUrl}/api/chats/${chatId}/attachments/`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as Json };
}

export interface Fetched {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/**
 * GETs a path on the app and reads the answer to its last byte, on a connection of its own that the server
 * closes after the answer (`Connection: close`). A kept-alive connection whose streamed answer ends just after
 * the app began to stop would stay open until its keep-alive timeout and hold the stop up.
 */
export function fetchPath(t: TestApp, urlPath: string, token?: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${t.baseUrl}${urlPath}`,
      {
        agent: false,
        headers: { connection: 'close', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve({ status: res.statusCode ?? 0, headers, bytes: Buffer.concat(chunks) });
        });
      },
    );
    req.on('error', reject);
  });
}

/** The stored file rows of a chat (by public chat id), oldest first. */
export async function fileRows(t: TestApp, chatId: string) {
  const chat = await t.ctx.db
    .selectFrom('chats')
    .select('id')
    .where('chat_id', '=', chatId)
    .executeTakeFirst();
  if (!chat) return [];
  return t.ctx.db.selectFrom('files').selectAll().where('chat_id', '=', chat.id).orderBy('id').execute();
}

/** A signed URL with one query parameter replaced. */
export function withParam(url: string, name: string, value: string): string {
  const u = new URL(url, 'http://x');
  u.searchParams.set(name, value);
  return `${u.pathname}?${u.searchParams.toString()}`;
}
