import type { ReactNode } from 'react';

/** Where a value goes in a translated sentence that shows it emphasized (an address, in bold). */
export const SLOT = '\u2063';

/**
 * A sentence from the catalog whose placeholder was given SLOT, with the value drawn in its place in <strong>:
 * the word order stays the translation's.
 */
export function Emphasized({ text, value }: { text: string; value: ReactNode }) {
  const [before = '', ...rest] = text.split(SLOT);
  return (
    <>
      {before}
      <strong className="font-semibold wrap-anywhere text-slate-900 dark:text-slate-100">{value}</strong>
      {rest.join('')}
    </>
  );
}
