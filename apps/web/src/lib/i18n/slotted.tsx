import type { ReactNode } from 'react';

/** Where an element goes in a translated sentence: give it as the placeholder's value, then draw with Slotted. */
export const SLOT = '\u2063';

/**
 * A sentence from the catalog whose placeholder was given SLOT, with `children` drawn in its place (a <time>, an
 * address in bold): the word order stays the translation's.
 */
export function Slotted({ text, children }: { text: string; children: ReactNode }) {
  const [before = '', ...rest] = text.split(SLOT);
  return (
    <>
      {before}
      {children}
      {rest.join('')}
    </>
  );
}
