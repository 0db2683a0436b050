import http from 'node:http';
import { sendForm, type Upload } from '../groups/group-helpers';
import type { Json, TestApp } from '../helpers/test-app';

// What the attachment tests share: real files of every accepted kind made by hand (PDF, DOCX as a real
// zip, text), uploads as the browser sends them, and fetching a served file to its last byte.

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

/** A minimal, valid one-page PDF (with a correct cross-reference table). */
export function makePdf(text = 'Hello PDF'): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
  ];
  const stream = `BT /F1 12 Tf 20 50 Td (${text}) Tj ET`;
  objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip archive with its entries stored (no compression): local headers, central directory, end record. */
export function makeZip(entries: { name: string; data: string | Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0, 6); // flags
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A minimal Word document: [Content_Types].xml naming the main part, and word/document.xml. */
export function makeDocx(text = 'Hello Word'): Buffer {
  return makeZip([
    {
      name: '[Content_Types].xml',
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ' +
        'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '</Types>',
    },
    {
      name: 'word/document.xml',
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
        `<w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`,
    },
  ]);
}

/** The start of an MP4 file: an ftyp box (brand mp42) and an empty mdat box. */
export function makeMp4(): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypmp42', 'latin1'),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from('mp42isom', 'latin1'),
  ]);
  const mdat = Buffer.concat([Buffer.from([0, 0, 0, 8]), Buffer.from('mdat', 'latin1')]);
  return Buffer.concat([ftyp, mdat]);
}

/** The first bytes of a 64-bit Linux executable (ELF magic and header), padded. */
export function makeElf(): Buffer {
  const bytes = Buffer.alloc(256);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(bytes, 0);
  bytes.writeUInt16LE(2, 16); // ET_EXEC
  bytes.writeUInt16LE(0x3e, 18); // x86-64
  bytes.writeUInt32LE(1, 20);
  return bytes;
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
