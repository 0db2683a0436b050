// Matched words shown as <mark>: the server sends [start, end) ranges into the text; the text is cut into plain
// and marked pieces, so it is always rendered as text, never as HTML.

export interface TextSegment {
  text: string;
  mark: boolean;
}

/** The text in pieces, the ranges marked; ranges are clamped to the text, sorted, and overlaps merged. */
export function highlightSegments(
  text: string,
  ranges: readonly (readonly [number, number])[],
): TextSegment[] {
  const sorted = ranges
    .map(([s, e]) => [Math.max(0, Math.min(s, text.length)), Math.max(0, Math.min(e, text.length))] as const)
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  const segments: TextSegment[] = [];
  let at = 0;
  for (const [start, end] of sorted) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    if (from > at) segments.push({ text: text.slice(at, from), mark: false });
    const last = segments.at(-1);
    // Touching or overlapping ranges make one mark.
    if (last?.mark && from === at) last.text += text.slice(from, end);
    else segments.push({ text: text.slice(from, end), mark: true });
    at = end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), mark: false });
  return segments;
}

/**
 * At most `max` characters of a long text, starting a little before the first match so that it shows, with '…'
 * where text was cut; the ranges moved to match. Line breaks read as spaces in a one-line result.
 */
export function snippetAround(
  text: string,
  ranges: readonly (readonly [number, number])[],
  max = 140,
  lead = 30,
): { text: string; ranges: [number, number][] } {
  const flat = text.replace(/\s/g, ' ');
  if (flat.length <= max) return { text: flat, ranges: ranges.map(([s, e]) => [s, e]) };
  const first = Math.min(...ranges.map(([s]) => s), flat.length);
  let start = first <= lead || first === flat.length ? 0 : first - lead;
  // Start at a word boundary, not in the middle of a word.
  if (start > 0) {
    const space = flat.lastIndexOf(' ', start);
    start = space >= 0 && first - space <= lead * 2 ? space + 1 : start;
  }
  const end = Math.min(flat.length, start + max);
  const before = start > 0 ? '…' : '';
  const after = end < flat.length ? '…' : '';
  const shift = before.length - start;
  return {
    text: `${before}${flat.slice(start, end)}${after}`,
    ranges: ranges
      .filter(([s, e]) => e > start && s < end)
      .map(([s, e]) => [Math.max(s, start) + shift, Math.min(e, end) + shift]),
  };
}
