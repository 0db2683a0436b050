import { describe, expect, it } from 'vitest';
import { cleanText, DESCRIPTION_MAX, decodePage, firstLink, pageMeta, TITLE_MAX } from './page-meta';

const page = new URL('https://news.example.org/articles/42');

describe('firstLink', () => {
  it('finds the first address written with http(s)', () => {
    expect(firstLink('see https://a.example/x?y=1, then http://b.example')).toBe('https://a.example/x?y=1');
    expect(firstLink('plain http://b.example/ first')).toBe('http://b.example/');
  });

  it('ignores addresses without a scheme, other schemes and text without links', () => {
    expect(firstLink('main.py and example.com and www.example.com')).toBeNull();
    expect(firstLink('ftp://files.example/x mailto:a@b.example //host.example')).toBeNull();
    expect(firstLink('file:///etc/passwd')).toBeNull();
    expect(firstLink('')).toBeNull();
  });
});

describe('pageMeta', () => {
  it('prefers Open Graph, then Twitter cards, then <title> and the meta description', () => {
    const og = `<html><head><title>Plain title</title>
      <meta property="og:title" content="OG &amp; title">
      <meta name="twitter:title" content="Twitter title">
      <meta property="og:description" content="OG description">
      <meta name="description" content="Meta description">
      <meta property="og:site_name" content="Example News">
      <meta property="og:image" content="/img/cover.png"></head><body>x</body></html>`;
    expect(pageMeta(og, page)).toEqual({
      title: 'OG & title',
      description: 'OG description',
      siteName: 'Example News',
      image: 'https://news.example.org/img/cover.png',
    });
    const twitter = `<head><title>Plain</title><meta name="twitter:title" content="Tw">
      <meta name="twitter:image" content="https://cdn.example/t.jpg"></head>`;
    expect(pageMeta(twitter, page)).toMatchObject({ title: 'Tw', image: 'https://cdn.example/t.jpg' });
    const plain = `<HEAD><TITLE> A  plain
      page </TITLE><META NAME="Description" CONTENT="Said plainly."></HEAD>`;
    expect(pageMeta(plain, page)).toEqual({
      title: 'A plain page',
      description: 'Said plainly.',
      siteName: null,
      image: null,
    });
  });

  it('keeps markup as text, never reads the body, and drops pictures that are not http(s)', () => {
    const html = `<head><title>&lt;script&gt;alert(1)&lt;/script&gt;</title>
      <meta property="og:image" content="javascript:alert(1)"></head>
      <body><meta property="og:description" content="from the body"></body>`;
    expect(pageMeta(html, page)).toEqual({
      title: '<script>alert(1)</script>',
      description: null,
      siteName: null,
      image: null,
    });
  });

  it('cuts long texts', () => {
    const html = `<head><title>${'t'.repeat(500)}</title><meta name="description" content="${'d'.repeat(900)}"></head>`;
    const meta = pageMeta(html, page);
    expect([...(meta.title ?? '')]).toHaveLength(TITLE_MAX);
    expect([...(meta.description ?? '')]).toHaveLength(DESCRIPTION_MAX);
  });
});

describe('cleanText', () => {
  it('collapses white space, removes control and direction characters, cuts by characters', () => {
    expect(cleanText(' a\n\tb\u202Ec\u0000 ', 10)).toBe('a b c');
    expect(cleanText('😀😀😀😀', 3)).toBe('😀😀…');
    expect(cleanText('   ', 10)).toBeNull();
    expect(cleanText(undefined, 10)).toBeNull();
  });
});

describe('decodePage', () => {
  it('uses the charset the server named, else the page’s <meta>, else UTF-8', () => {
    const latin1 = Buffer.from('<title>Caf\xe9</title>', 'latin1');
    expect(decodePage(latin1, 'iso-8859-1')).toContain('Café');
    const meta = Buffer.concat([Buffer.from('<meta charset="windows-1252"><title>'), latin1.subarray(7)]);
    expect(decodePage(meta, null)).toContain('Café');
    expect(decodePage(Buffer.from('<title>Café</title>'), null)).toContain('Café');
    expect(decodePage(Buffer.from('<title>Café</title>'), 'no-such-charset')).toContain('Café');
  });
});
