import MarkdownIt, { type Delimiter, type StateInline, type Token } from 'markdown-it';

// The light formatting of message bodies, as data the screen draws with React elements: never HTML.
// markdown-it only tokenizes: raw HTML is off (a tag stays the text it was), and of its rules only these run —
// *bold* / **bold**, _italic_, ~strike~ / ~~strike~~, `code`, backslash escapes and web addresses. Fenced code
// blocks are split off first, line by line; everything else keeps its line breaks and spaces as typed (no
// paragraphs, no headings, lists or quotes: a chat message is not a document). Links are http(s) only.
// This module is the heavy part (markdown-it and linkify-it): it is loaded on demand (see rich-text.tsx).

export type FormatNode =
  | { type: 'text'; text: string }
  | { type: 'strong' | 'em' | 's'; children: FormatNode[] }
  | { type: 'code'; text: string }
  | { type: 'codeblock'; text: string; lang: string }
  | { type: 'link'; href: string; children: FormatNode[] };

const md = new MarkdownIt('zero', { html: false, linkify: true, typographer: false });
md.enable(['emphasis', 'strikethrough', 'backticks', 'escape', 'linkify']);
// An address without a scheme is a link only when it starts with 'www.' (see linkHref): 'main.py' and
// 'README.md' name files. A bare e-mail address or 'ftp:' is not a web address.
md.linkify.set({ fuzzyLink: true, fuzzyEmail: false });
md.linkify.add('ftp:', null).add('mailto:', null);

const TILDE = 0x7e;

/** `~strike~` as well as `~~strike~~`: a run of one or two tildes is one delimiter (three or more stay text). */
function tildeTokenize(state: StateInline, silent: boolean): boolean {
  if (silent || state.src.charCodeAt(state.pos) !== TILDE) return false;
  const scanned = state.scanDelims(state.pos, true);
  const token = state.push('text', '', 0);
  token.content = '~'.repeat(scanned.length);
  if (scanned.length <= 2) {
    state.delimiters.push({
      marker: TILDE,
      length: 0, // not emphasis' rule of three
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close,
    });
  }
  state.pos += scanned.length;
  return true;
}

function tildePairs(state: StateInline, delimiters: Delimiter[]) {
  for (const start of delimiters) {
    if (start.marker !== TILDE || start.end === -1) continue;
    const end = delimiters[start.end];
    if (!end) continue;
    const open = state.tokens[start.token]!;
    const close = state.tokens[end.token]!;
    if (open.content !== close.content) continue; // ~a~~ is not a pair
    Object.assign(open, { type: 's_open', tag: 's', nesting: 1, markup: open.content, content: '' });
    Object.assign(close, { type: 's_close', tag: 's', nesting: -1, markup: close.content, content: '' });
  }
}

md.inline.ruler.at('strikethrough', tildeTokenize);
md.inline.ruler2.at('strikethrough', (state) => {
  tildePairs(state, state.delimiters);
  for (const meta of state.tokens_meta) if (meta?.delimiters) tildePairs(state, meta.delimiters);
  return false;
});

/** Only absolute http(s) addresses become links; anything else (javascript:, data:, //host) stays text. */
export function safeHref(href: string): string | null {
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A found address's link, or null to keep it as text: written with http(s):// or starting with 'www.'. */
function linkHref(href: string, written: string): string | null {
  if (!/^https?:\/\//i.test(written) && !/^www\./i.test(written)) return null;
  return safeHref(href);
}

function inlineNodes(text: string): FormatNode[] {
  const tokens = md.parseInline(text, {})[0]?.children ?? [];
  const root: FormatNode[] = [];
  const stack: FormatNode[][] = [root];
  const out = () => stack[stack.length - 1]!;
  const pushText = (t: string) => {
    if (!t) return;
    const list = out();
    const last = list[list.length - 1];
    if (last?.type === 'text') last.text += t;
    else list.push({ type: 'text', text: t });
  };
  const open = (node: Extract<FormatNode, { children: FormatNode[] }>) => {
    out().push(node);
    stack.push(node.children);
  };
  const close = () => {
    if (stack.length > 1) stack.pop();
  };
  for (let i = 0; i < tokens.length; i++) {
    const token: Token = tokens[i]!;
    switch (token.type) {
      case 'text':
        pushText(token.content);
        break;
      case 'code_inline':
        out().push({ type: 'code', text: token.content });
        break;
      case 'strong_open':
        open({ type: 'strong', children: [] });
        break;
      // Chat style: *one star* is bold as well, _underscores_ are italic.
      case 'em_open':
        open({ type: token.markup === '_' ? 'em' : 'strong', children: [] });
        break;
      case 's_open':
        open({ type: 's', children: [] });
        break;
      case 'link_open': {
        const href = linkHref(String(token.attrGet('href') ?? ''), tokens[i + 1]?.content ?? '');
        if (href) open({ type: 'link', href, children: [] });
        else {
          // Not a web address: its text, as written.
          while (i + 1 < tokens.length && tokens[i + 1]!.type !== 'link_close')
            pushText(tokens[++i]!.content);
          i++;
        }
        break;
      }
      case 'strong_close':
      case 'em_close':
      case 's_close':
      case 'link_close':
        close();
        break;
      default:
        // Any other token (none are enabled) keeps its source text.
        pushText(token.content);
    }
  }
  return root;
}

const FENCE_OPEN = /^```([^`\n]*)$/;
const FENCE_CLOSE = /^```\s*$/;

/** The body cut into text and fenced code blocks; a fence never closed is text. */
export function splitFences(
  body: string,
): ({ kind: 'text'; text: string } | { kind: 'code'; text: string; lang: string })[] {
  const lines = body.split('\n');
  const parts: ({ kind: 'text'; text: string } | { kind: 'code'; text: string; lang: string })[] = [];
  let text: string[] = [];
  const flushText = () => {
    if (text.length > 0) parts.push({ kind: 'text', text: text.join('\n') });
    text = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const opening = FENCE_OPEN.exec(lines[i]!.trimEnd());
    const closeAt = opening ? lines.findIndex((line, j) => j > i && FENCE_CLOSE.test(line)) : -1;
    if (!opening || closeAt === -1) {
      text.push(lines[i]!);
      continue;
    }
    flushText();
    parts.push({
      kind: 'code',
      text: lines.slice(i + 1, closeAt).join('\n'),
      lang: (opening[1] ?? '').trim(),
    });
    i = closeAt;
  }
  flushText();
  return parts;
}

/** A message body as formatted nodes. */
export function formatBody(body: string): FormatNode[] {
  return splitFences(body).flatMap((part): FormatNode[] =>
    part.kind === 'code' ? [{ type: 'codeblock', text: part.text, lang: part.lang }] : inlineNodes(part.text),
  );
}
