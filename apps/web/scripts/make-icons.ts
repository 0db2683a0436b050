// Draws Parley's app icons from the favicon's mark with Debian's Chromium, into public/icons/:
// 192 and 512 px (the mark as the favicon draws it), a 512 px maskable one (full bleed: the platform cuts its
// own shape; the glyph sits inside the 80 % safe zone) and the 180 px apple-touch icon (opaque, square).
// Run again after changing the mark: `npx tsx apps/web/scripts/make-icons.ts`; the PNGs are committed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '../public/icons');
const BRAND = '#4f46e5';
const GLYPH =
  'M9 10.5A2.5 2.5 0 0 1 11.5 8h9A2.5 2.5 0 0 1 23 10.5v6a2.5 2.5 0 0 1-2.5 2.5H15l-4 3.5V19h0a2 2 0 0 1-2-2z';

const svg = (radius: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="100%" height="100%">` +
  `<rect width="32" height="32" rx="${radius}" fill="${BRAND}"/><path d="${GLYPH}" fill="#fff"/></svg>`;

const icons = [
  { file: 'icon-192.png', size: 192, radius: 8 },
  { file: 'icon-512.png', size: 512, radius: 8 },
  { file: 'icon-maskable-512.png', size: 512, radius: 0 },
  { file: 'apple-touch-icon.png', size: 180, radius: 0 },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  fs.mkdirSync(out, { recursive: true });
  for (const icon of icons) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">` +
        `<div style="width:${icon.size}px;height:${icon.size}px">${svg(icon.radius)}</div></body></html>`,
    );
    await page.screenshot({ path: path.join(out, icon.file), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
