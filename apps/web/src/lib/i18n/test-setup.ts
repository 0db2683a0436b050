import { i18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { englishMessages } from './catalog-files';

// The unit tests read the app's texts in English: the English catalogs, compiled at run time (the app has them
// compiled by Lingui's Vite plugin), active before any test draws a component or asks t() for a text.
i18n.setMessagesCompiler(compileMessage);
i18n.loadAndActivate({ locale: 'en', messages: englishMessages });
