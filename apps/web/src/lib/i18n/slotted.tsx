import { Fragment, type ReactNode } from 'react';

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

/** The placeholder values that put several elements into a translated sentence: give them to t(), the text to Slots. */
export const slotsFor = (names: string[]): Record<string, string> =>
  Object.fromEntries(names.map((name, i) => [name, `${SLOT}${i}${SLOT}`]));

/**
 * A sentence from the catalog whose placeholders were given slotsFor(names), with `nodes[i]` drawn where the
 * i-th name went (two names, a name and a time): each in the translation's own order.
 */
export function Slots({ text, nodes }: { text: string; nodes: ReactNode[] }) {
  const parts = text.split(new RegExp(`${SLOT}(\\d+)${SLOT}`));
  return (
    <>
      {parts.map((part, i) => (
        // Odd parts are the slots' numbers; the sentence's parts never move, so their places are their keys.
        <Fragment key={i}>{i % 2 === 1 ? nodes[Number(part)] : part}</Fragment>
      ))}
    </>
  );
}
