import type { ReactNode } from 'react';
import { Slotted } from '../../../lib/i18n/slotted';

export { SLOT } from '../../../lib/i18n/slotted';

/** A sentence from the catalog with its SLOT drawn emphasized (an address, in bold), in the translation's order. */
export function Emphasized({ text, value }: { text: string; value: ReactNode }) {
  return (
    <Slotted text={text}>
      <strong className="font-semibold wrap-anywhere text-slate-900 dark:text-slate-100">{value}</strong>
    </Slotted>
  );
}
