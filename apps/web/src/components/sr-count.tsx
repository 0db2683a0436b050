import { SLOT } from '../lib/i18n/slotted';

/**
 * A count drawn as a number (a badge's '3', '99+') that a screen reader hears in words ('3 unread messages'):
 * `text` is the catalog's sentence with SLOT where the number goes, around it the words only a screen reader
 * hears. A sentence that names no number (Arabic's 'one message') is heard whole, the number shown beside it.
 */
export function SrCount({ text, shown }: { text: string; shown: string | number }) {
  const at = text.indexOf(SLOT);
  if (at < 0)
    return (
      <>
        <span aria-hidden="true">{shown}</span>
        <span className="sr-only"> {text}</span>
      </>
    );
  const before = text.slice(0, at);
  const after = text.slice(at + SLOT.length);
  return (
    <>
      {before && <span className="sr-only">{before}</span>}
      {shown}
      {after && <span className="sr-only">{after}</span>}
    </>
  );
}
