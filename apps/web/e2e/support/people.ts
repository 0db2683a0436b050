import { deflateSync } from 'node:zlib';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
} from '@playwright/test';
import { createVerifiedAccount, type TestAccount } from './accounts';

// People signed in through the API, each in a browser context of their own, for journeys between several users.

export interface Person {
  account: TestAccount;
  token: string;
  user: { id: number; username: string; first_name: string; last_name: string };
  page: Page;
  context: BrowserContext;
}

export const fullName = (p: Person) => `${p.account.first_name} ${p.account.last_name}`;

/** A verified account with its session in localStorage; the caller closes `context` (see `closeAll`). */
export async function signedInPerson(
  browser: Browser,
  request: APIRequestContext,
  prefix: string,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<Person> {
  const account = await createVerifiedAccount(request, prefix);
  const login = await request.post('/api/users/login/', {
    data: { email: account.email, password: account.password, remember_me: true },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const { token, ...user } = await login.json();
  const context = await browser.newContext(options.viewport ? { viewport: options.viewport } : {});
  await context.addInitScript(
    ({ t, u }) => {
      if (!window.localStorage.getItem('token')) {
        window.localStorage.setItem('token', t);
        window.localStorage.setItem('user', u);
        window.localStorage.setItem('rememberMe', 'true');
      }
    },
    { t: token as string, u: JSON.stringify(user) },
  );
  return { account, token, user, context, page: await context.newPage() };
}

/** A real PNG of one colour (the server re-encodes pictures, so they must be decodable). */
export function pngOf(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A small, valid one-page PDF saying `text`. */
export function pdfOf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
