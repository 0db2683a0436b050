import { type I18n, setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { DEFAULT_LOCALE, isLocale, type Locale } from '@parley/protocol';
import ar from '@parley/protocol/catalogs/ar.json';
import de from '@parley/protocol/catalogs/de.json';
import en from '@parley/protocol/catalogs/en.json';
import es from '@parley/protocol/catalogs/es.json';
import fr from '@parley/protocol/catalogs/fr.json';
import generalAr from '@parley/protocol/catalogs/general/ar.json';
import generalDe from '@parley/protocol/catalogs/general/de.json';
import generalEn from '@parley/protocol/catalogs/general/en.json';
import generalEs from '@parley/protocol/catalogs/general/es.json';
import generalFr from '@parley/protocol/catalogs/general/fr.json';
import generalPtBR from '@parley/protocol/catalogs/general/pt-BR.json';
import ptBR from '@parley/protocol/catalogs/pt-BR.json';

// The server's texts in a person's language (its mail, its Web Push notifications), from the web app's catalogs:
// the core one and the `general` area's (which holds the push texts). One Lingui instance per language, its
// messages compiled the first time that language is asked for.

export type TextId = keyof typeof en | keyof typeof generalEn;
export type TextValues = Record<string, string | number>;
/** Texts of one language. */
export type Texts = (id: TextId, values?: TextValues) => string;

const catalogs: Record<Locale, Record<string, string>> = {
  en: { ...en, ...generalEn },
  de: { ...de, ...generalDe },
  fr: { ...fr, ...generalFr },
  es: { ...es, ...generalEs },
  'pt-BR': { ...ptBR, ...generalPtBR },
  ar: { ...ar, ...generalAr },
};
const instances = new Map<Locale, I18n>();

function instance(locale: Locale): I18n {
  let i18n = instances.get(locale);
  if (!i18n) {
    i18n = setupI18n();
    i18n.setMessagesCompiler(compileMessage);
    i18n.loadAndActivate({ locale, messages: catalogs[locale] });
    instances.set(locale, i18n);
  }
  return i18n;
}

export const textsIn = (locale: Locale): Texts => {
  const i18n = instance(locale);
  return (id, values) => i18n._(id, values);
};

/** The language a person's mail (and push) is written in: the one they chose, else their sign-up browser's, else English. */
export const mailLocale = (person: { language?: string | null; signup_language?: string | null }): Locale =>
  isLocale(person.language)
    ? person.language
    : isLocale(person.signup_language)
      ? person.signup_language
      : DEFAULT_LOCALE;
