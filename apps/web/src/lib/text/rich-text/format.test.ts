import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type FormatNode, formatBody, safeHref, splitFences } from './format';
import { loadFormatter, mayFormat, RichText, renderNodes } from './rich-text';

const text = (t: string): FormatNode => ({ type: 'text', text: t });
const html = (body: string) =>
  renderToStaticMarkup(
    createElement(
      'div',
      null,
      renderNodes(formatBody(body), (t) => t),
    ),
  );

describe('formatBody', () => {
  it('reads *bold* and **bold** as bold, _italic_, ~strike~ and ~~strike~~, `code`', () => {
    expect(formatBody('*a* **b** _c_ ~d~ ~~e~~ `f*g*`')).toEqual([
      { type: 'strong', children: [text('a')] },
      text(' '),
      { type: 'strong', children: [text('b')] },
      text(' '),
      { type: 'em', children: [text('c')] },
      text(' '),
      { type: 's', children: [text('d')] },
      text(' '),
      { type: 's', children: [text('e')] },
      text(' '),
      { type: 'code', text: 'f*g*' },
    ]);
  });

  it('nests formatting and leaves unpaired or intraword markers as typed', () => {
    expect(formatBody('*bold _and italic_*')).toEqual([
      { type: 'strong', children: [text('bold '), { type: 'em', children: [text('and italic')] }] },
    ]);
    expect(formatBody('snake_case_name, a * b, ~~~x, 5 ~ 6')).toEqual([
      text('snake_case_name, a * b, ~~~x, 5 ~ 6'),
    ]);
    expect(formatBody('\\*not bold\\*')).toEqual([text('*not bold*')]);
  });

  it('keeps line breaks and leading spaces as typed (no paragraphs, headings or lists)', () => {
    expect(formatBody('  one\n\n# two\n- three\n> four')).toEqual([text('  one\n\n# two\n- three\n> four')]);
  });

  it('turns fenced blocks into code blocks, their content verbatim, the text around them kept', () => {
    expect(formatBody('look:\n```ts\nconst a = *b*;\n  <b>x</b>\n```\nnice')).toEqual([
      text('look:'),
      { type: 'codeblock', text: 'const a = *b*;\n  <b>x</b>', lang: 'ts' },
      text('nice'),
    ]);
    // A fence never closed is text.
    expect(formatBody('```\nnot closed')).toEqual([text('```\nnot closed')]);
    expect(splitFences('a\n```\nb\n```')).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'code', text: 'b', lang: '' },
    ]);
  });

  it('links http(s) addresses and www. names, without the sentence’s last full stop', () => {
    expect(formatBody('see https://example.com/a_b?x=1. or www.example.org')).toEqual([
      text('see '),
      { type: 'link', href: 'https://example.com/a_b?x=1', children: [text('https://example.com/a_b?x=1')] },
      text('. or '),
      { type: 'link', href: 'http://www.example.org/', children: [text('www.example.org')] },
    ]);
  });

  it('does not link file names, e-mail addresses or other schemes', () => {
    for (const body of [
      'open main.py and README.md',
      'mail ada@example.com',
      'ftp://example.com',
      'mailto:a@b.co',
    ])
      expect(formatBody(body)).toEqual([text(body)]);
  });
});

describe('XSS: everything a body can carry is inert', () => {
  const payloads = [
    'javascript:alert(1)',
    '[click](javascript:alert(1))',
    '<a href="javascript:alert(1)">click</a>',
    '<img src=x onerror=alert(1)>',
    '<script>alert(1)</script>',
    '![x](data:image/png;base64,AAAA)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    '<a href=x onclick=alert(1)>x</a>',
    '<iframe src="https://evil.example"></iframe>',
    'JaVaScRiPt:alert(1)',
    'vbscript:msgbox(1)',
    '<svg onload=alert(1)>',
    '&lt;b&gt; &#x3C;script&#x3E;',
  ];
  for (const payload of payloads) {
    it(`${payload} stays text`, () => {
      // The only elements: the wrapper, and links to http(s) addresses the text spelled out.
      const out = html(payload).replace(
        /<a href="https?:\/\/[^"]*" target="_blank" rel="noopener noreferrer nofollow"[^>]*>|<\/a>/g,
        '',
      );
      expect(out).not.toMatch(/<(?!\/?div>)/);
      expect(out).not.toMatch(/<[^>]*(javascript|data|vbscript):/i);
    });
  }

  it('escapes HTML inside code, code blocks and next to real links', () => {
    const out = html('`<img onerror=x>` https://example.com/<script> \n```\n<script>alert(1)</script>\n```');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<script');
    expect(out).toContain('&lt;img onerror=x&gt;');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('gives every link target=_blank and rel="noopener noreferrer nofollow"', () => {
    expect(html('go to https://example.com')).toBe(
      '<div>go to <a href="https://example.com/" target="_blank" rel="noopener noreferrer nofollow" class="font-medium underline underline-offset-2 hover:decoration-2">https://example.com</a></div>',
    );
  });

  it('safeHref lets only absolute http(s) addresses through', () => {
    expect(safeHref('https://example.com/a')).toBe('https://example.com/a');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
    expect(safeHref('//evil.example')).toBeNull();
    expect(safeHref('/relative')).toBeNull();
  });
});

describe('RichText', () => {
  it('draws plain text through renderText, and skips the formatter for bodies without markers', async () => {
    expect(mayFormat('hello there @ada')).toBe(false);
    expect(mayFormat('a *b*')).toBe(true);
    expect(mayFormat('https://x.org')).toBe(true);
    await loadFormatter();
    const out = renderToStaticMarkup(
      createElement(RichText, {
        body: '*hi* @ada, see https://example.com/@ada',
        renderText: (t: string) => createElement('mark', null, t),
      }),
    );
    // Text outside links goes through renderText; a link's text never does (no link inside a link).
    expect(out).toBe(
      '<strong class="font-semibold"><mark>hi</mark></strong><mark> @ada, see </mark><a href="https://example.com/@ada" target="_blank" rel="noopener noreferrer nofollow" class="font-medium underline underline-offset-2 hover:decoration-2">https://example.com/@ada</a>',
    );
  });
});
