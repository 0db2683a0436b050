import { Fragment, type ReactNode } from 'react';
import { SLOT } from '../../../lib/i18n/slotted';

// A translated sentence with more than one element in it (two names, each kept from translation): each
// placeholder gets slot(its name) as its value, and Slots draws the element given for that name in its place,
// wherever the translation put it.

/** The value of a placeholder that an element of Slots fills. */
export const slot = (name: string): string => `${SLOT}${name}${SLOT}`;

export function Slots({ text, slots }: { text: string; slots: Record<string, ReactNode> }) {
  const parts = text.split(new RegExp(`${SLOT}(\\w+)${SLOT}`));
  return (
    <>
      {parts.map((part, i) => (
        // Odd parts are the names of slots; the sentence's parts never move, so their places are their keys.
        <Fragment key={i}>{i % 2 === 1 ? slots[part] : part}</Fragment>
      ))}
    </>
  );
}
