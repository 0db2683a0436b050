// The tab's icon with the unread total on it: the SVG icon drawn on a canvas with a red badge, or the plain
// icon when nothing is unread. A count drawn once is kept, so a changing count costs one draw each.

const ICON_URL = '/favicon.svg';
const SIZE = 64;
let baseIcon: Promise<HTMLImageElement> | null = null;
/** The latest call wins: a slow draw for an older count never replaces a newer icon. */
let latest = 0;
const drawn = new Map<string, string>();

function loadIcon(): Promise<HTMLImageElement> {
  baseIcon ??= new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => {
      baseIcon = null;
      reject(new Error('favicon did not load'));
    };
    img.src = ICON_URL;
  });
  return baseIcon;
}

export const badgeText = (count: number) => (count > 99 ? '99+' : String(count));

async function badgedIcon(count: number): Promise<string> {
  const text = badgeText(count);
  const cached = drawn.get(text);
  if (cached) return cached;
  const img = await loadIcon();
  const canvas = document.createElement('canvas');
  canvas.width = SIZE;
  canvas.height = SIZE;
  const g = canvas.getContext('2d');
  if (!g) return ICON_URL;
  g.drawImage(img, 0, 0, SIZE, SIZE);
  const r = text.length > 2 ? 22 : 19;
  const cx = SIZE - r;
  const cy = r;
  g.beginPath();
  g.arc(cx, cy, r, 0, Math.PI * 2);
  g.fillStyle = '#dc2626';
  g.fill();
  g.lineWidth = 4;
  g.strokeStyle = '#ffffff';
  g.stroke();
  g.fillStyle = '#ffffff';
  g.font = `bold ${text.length > 2 ? 20 : text.length > 1 ? 24 : 28}px system-ui, sans-serif`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(text, cx, cy + 1);
  const url = canvas.toDataURL('image/png');
  drawn.set(text, url);
  return url;
}

/** Shows `count` on the tab's icon (the plain icon for 0). */
export async function setFaviconCount(count: number): Promise<void> {
  const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) return;
  const call = ++latest;
  if (count <= 0) {
    link.type = 'image/svg+xml';
    link.href = ICON_URL;
    return;
  }
  try {
    const url = await badgedIcon(count);
    if (call !== latest) return;
    link.type = 'image/png';
    link.href = url;
  } catch {
    // The plain icon stays; the title still carries the count.
  }
}
