import { Fragment } from 'react';
import { useT } from '../../../lib/i18n/i18n';
import { systemLineOf } from '../../../lib/text/system-lines';

/** Where each name goes in the translated line: a character no catalog text holds, one per placeholder. */
const MARK = 0xe000;

/**
 * A system line ('Ada added Grace') in the reader's language, each name marked as a person's own words
 * (translate="no"); a line the app does not know is shown as the server wrote it.
 */
export function SystemLine({ body }: { body: string }) {
  const t = useT();
  const line = systemLineOf(body);
  if (!line) return <>{body}</>;
  const names = Object.entries(line.values);
  const marks = Object.fromEntries(names.map(([key], i) => [key, String.fromCharCode(MARK + i)]));
  const text = t(line.id, marks);
  return (
    <>
      {text.split(/([\ue000-\ue0ff])/).map((part, i) => {
        const index = part.length === 1 ? part.charCodeAt(0) - MARK : -1;
        const name = index >= 0 ? names[index] : undefined;
        return name ? (
          <span key={i} translate="no">
            {name[1]}
          </span>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        );
      })}
    </>
  );
}
