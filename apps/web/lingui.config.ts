import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-json';
import { LOCALES } from '../../packages/protocol/src/i18n';

// The catalogs are the protocol package's (the server mails from the same files): flat JSON, message id → ICU
// message, English the source. The Vite plugin compiles the one a page imports (`{locale}.json?lingui`).
export default defineConfig({
  sourceLocale: 'en',
  locales: [...LOCALES],
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/../../packages/protocol/catalogs/{locale}',
      include: ['<rootDir>/src'],
    },
  ],
  format: formatter({ style: 'minimal' }),
});
