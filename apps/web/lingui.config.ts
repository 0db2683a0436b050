import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-json';
import { LOCALES } from '../../packages/protocol/src/i18n';

// The catalogs are the protocol package's (the server mails from the same files): flat JSON, message id → ICU
// message, English the source. The core catalog is `catalogs/{locale}.json`; each area of screens has its own
// beside it (`catalogs/{area}/{locale}.json`, every id starting with `{area}.`), so areas are translated apart.
// The Vite plugin compiles the ones a page imports (`….json?lingui`). The pseudo-locale is English with every
// letter accented: a browser test run in it finds any text that did not come from a catalog.
const CATALOGS = '<rootDir>/../../packages/protocol/catalogs';
const AREAS = ['account', 'admin', 'browse', 'general', 'groups'] as const;

export default defineConfig({
  sourceLocale: 'en',
  locales: [...LOCALES, 'pseudo'],
  pseudoLocale: 'pseudo',
  fallbackLocales: { default: 'en' },
  catalogs: [
    { path: `${CATALOGS}/{locale}`, include: ['<rootDir>/src'] },
    ...AREAS.map((area) => ({ path: `${CATALOGS}/${area}/{locale}`, include: ['<rootDir>/src'] })),
  ],
  format: formatter({ style: 'minimal' }),
});
