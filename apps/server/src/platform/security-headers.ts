import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

// The security headers of every answer: a CSP that allows the page's own inline scripts by their hashes and
// sockets only to this host, and helmet's other headers.

/**
 * CSP connect-src for sockets: this host's ws:/wss: origins (and PUBLIC_URL's when it differs), never any host,
 * so an injected script cannot open a socket elsewhere. `'self'` alone does not cover ws: in every browser.
 */
export function socketOrigins(host: string | undefined, publicUrl: string | null): string {
  const hosts = new Set<string>();
  if (host && /^[A-Za-z0-9.:[\]-]+$/.test(host)) hosts.add(host.toLowerCase());
  if (publicUrl) hosts.add(new URL(publicUrl).host);
  return [...hosts].flatMap((h) => [`ws://${h}`, `wss://${h}`]).join(' ');
}

/**
 * The CSP sources of a page's inline scripts, by their SHA-256 hashes: the web page's theme script runs inline
 * before the first paint (a script file there would hold the first paint back by a round trip), and the
 * policy allows exactly that script, never 'unsafe-inline'.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)]
    .map((match) => match[1] ?? '')
    .filter((body) => body.trim() !== '')
    .map((body) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
}

/**
 * The headers' middleware for a page whose HTML is `indexHtml` ('' without a web build), built once: helmet's
 * Fastify plugin builds it afresh for every request, which cost the history page a tenth of its CPU
 * (bench/findings/2026-11-25-history-page-statements.md).
 */
export function securityHeadersFor(
  publicUrl: string | null,
  indexHtml: string,
): (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void {
  // The same few hosts ask again and again (any Host header may come, so the memory is bounded).
  const originsByHost = new Map<string | undefined, string>();
  const socketOriginsOf = (host: string | undefined) => {
    let origins = originsByHost.get(host);
    if (origins === undefined) {
      origins = socketOrigins(host, publicUrl);
      if (originsByHost.size >= 64) originsByHost.clear();
      originsByHost.set(host, origins);
    }
    return origins;
  };
  const inlineScripts = inlineScriptHashes(indexHtml);
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScripts],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", (req) => socketOriginsOf(req.headers.host)],
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        upgradeInsecureRequests: null,
      },
    },
    hsts: publicUrl?.startsWith('https://') ? undefined : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
}
