import { Parser } from 'htmlparser2';
import { linkifyit } from 'linkify-it';

// What a page says about itself (Open Graph, then Twitter cards, then <title> and the meta description), and
// the first web address of a message's text. Pure: no I/O, so both are tested without a server.

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 500;
const SITE_NAME_MAX = 100;

export interface PageMeta {
  title: string | null;
  description: string | null;
  siteName: string | null;
  /** The picture's absolute http(s) address, resolved against the page's. */
  image: string | null;
}

// Only addresses written with their scheme: 'main.py' or 'example.com' in a sentence are not links to fetch.
const linkify = linkifyit({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });

/** The first http(s) address of a message's text, or null. */
export function firstLink(body: string): string | null {
  if (!body.includes('http')) return null;
  for (const match of linkify.match(body) ?? []) {
    if (match.schema !== 'http:' && match.schema !== 'https:') continue;
    try {
      return new URL(match.url).href;
    } catch {}
  }
  return null;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text as it reads: entities decoded (by the parser), runs of white space one space, cut to `max` characters. */
export function cleanText(value: string | undefined, max: number): string | null {
  if (!value) return null;
  const text = value.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  if (!text) return null;
  const chars = [...text];
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** The page's metadata from its HTML; `pageUrl` resolves a relative picture address. */
export function pageMeta(html: string, pageUrl: URL): PageMeta {
  const meta = new Map<string, string>();
  let title = '';
  let inTitle = false;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'title') inTitle = true;
        else if (name === 'meta') {
          const key = (attribs.property ?? attribs.name ?? '').trim().toLowerCase();
          // The first of each wins, as the crawlers that read them do.
          if (key && attribs.content !== undefined && !meta.has(key)) meta.set(key, attribs.content);
        }
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  // Metadata belongs in <head>: what the body says is the page's content, not its description, and the rest of
  // the page (most of it) is not read.
  const body = html.search(/<\/head\s*>|<body[\s>]/i);
  parser.write(body < 0 ? html : html.slice(0, body));
  parser.end();
  const pick = (...keys: string[]) => keys.map((k) => meta.get(k)).find((v) => v?.trim());
  return {
    title: cleanText(pick('og:title', 'twitter:title') ?? title, TITLE_MAX),
    description: cleanText(pick('og:description', 'twitter:description', 'description'), DESCRIPTION_MAX),
    siteName: cleanText(pick('og:site_name', 'application-name'), SITE_NAME_MAX),
    image: absoluteHttp(
      pick('og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src'),
      pageUrl,
    ),
  };
}

function absoluteHttp(address: string | undefined, base: URL): string | null {
  if (!address) return null;
  try {
    const url = new URL(address.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The page's text from its bytes: the charset its server named, else the one its <meta> names, else UTF-8. */
export function decodePage(body: Buffer, charset: string | null): string {
  const named =
    charset ??
    /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(named ?? 'utf-8').decode(body);
  } catch {
    // A charset TextDecoder does not know.
    return new TextDecoder('utf-8').decode(body);
  }
}
