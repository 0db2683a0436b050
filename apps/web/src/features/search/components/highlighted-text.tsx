import { highlightSegments } from '../lib/highlight';

/** Text with the given [start, end) ranges in <mark>; React renders every piece as text, never as HTML. */
export function HighlightedText({
  text,
  ranges,
}: {
  text: string;
  ranges: readonly (readonly [number, number])[];
}) {
  let offset = 0;
  return (
    <>
      {highlightSegments(text, ranges).map((segment) => {
        const key = offset;
        offset += segment.text.length;
        return segment.mark ? (
          <mark key={key} className="rounded-sm bg-amber-200 px-0.5 text-inherit dark:bg-amber-400/30">
            {segment.text}
          </mark>
        ) : (
          <span key={key}>{segment.text}</span>
        );
      })}
    </>
  );
}
