import type { Locale } from '@parley/protocol';

// The catalogs as plain JSON, for the unit tests (the app imports them compiled): the core catalog of each
// language and each area's, by the path they live at. Nothing here loads the protocol package: the test setup
// reads this before any test, and one test needs zod configured before zod loads.

type Catalog = Record<string, string>;

const files = import.meta.glob<Catalog>(
  ['../../../../../packages/protocol/catalogs/*.json', '../../../../../packages/protocol/catalogs/*/*.json'],
  { eager: true, import: 'default' },
);

/** Each catalog's area ('' for the core one), language and messages; the pseudo-locale's empty ones left out. */
export const catalogFiles: Array<{ area: string; locale: Locale; messages: Catalog }> = Object.entries(files)
  .map(([path, messages]) => {
    const [, area = '', locale = ''] = /catalogs\/(?:([\w-]+)\/)?([\w-]+)\.json$/.exec(path) ?? [];
    return { area, locale: locale as Locale, messages };
  })
  .filter((f) => f.locale !== ('pseudo' as Locale));

/** A language's messages, all areas as one. */
export const messagesIn = (locale: Locale): Catalog =>
  Object.assign({}, ...catalogFiles.filter((f) => f.locale === locale).map((f) => f.messages));

export const englishMessages = messagesIn('en');
