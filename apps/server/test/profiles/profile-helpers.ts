import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { ApiResponse, Json, TestApp } from '../helpers/test-app';

// What the profile tests share on top of the test app: multipart uploads, a real JPEG (PNGs come from
// @parley/fixtures), the avatar folder.

export interface Upload {
  bytes: Uint8Array;
  filename?: string;
  type?: string;
  /** The multipart field name; `image` unless a test says otherwise. */
  field?: string;
}

/** Sends the profile update form as the browser does: multipart, boundary chosen by fetch. */
export async function sendProfileForm(
  t: TestApp,
  token: string | null,
  fields: Record<string, string>,
  uploads: Upload[] = [],
  method: 'PUT' | 'POST' = 'PUT',
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const u of uploads) {
    const blob = new Blob([u.bytes], { type: u.type ?? 'image/png' });
    form.append(u.field ?? 'image', blob, u.filename ?? 'picture.png');
  }
  const res = await fetch(`${t.baseUrl}/api/users/profile/update/`, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await res.text();
  let body: Json = text;
  if ((res.headers.get('content-type') ?? '').includes('application/json') && text) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body, text };
}

export const makeJpeg = (width = 300, height = 900): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: '#ff9900' } })
    .jpeg()
    .toBuffer();

/** The file names in DATA_DIR/media/avatars (empty when the folder does not exist yet). */
export async function avatarFiles(t: TestApp): Promise<string[]> {
  try {
    return (await fs.readdir(path.join(t.dataDir, 'media', 'avatars'))).sort();
  } catch {
    return [];
  }
}

/** The stored row's profile columns, to show that a refused update changed nothing. */
export const profileRow = (t: TestApp, userId: number) =>
  t.ctx.db
    .selectFrom('users')
    .select(['first_name', 'last_name', 'displayname', 'username', 'bio', 'avatar'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();

/** The avatar's file name from its public URL. */
export const avatarName = (url: string): string => {
  const match = /^\/media\/avatars\/([^/]+)$/.exec(url);
  if (!match?.[1]) throw new Error(`Not an avatar URL: ${url}`);
  return match[1];
};
