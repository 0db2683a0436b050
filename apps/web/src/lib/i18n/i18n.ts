import { i18n, type Messages } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { isLocale, isRtl, type Locale, localeFor } from '@parley/protocol';
import type english from '../../../../../packages/protocol/catalogs/en.json';

// The app's language: the person's choice (kept in this browser, and in their account's settings), else the
// browser's languages; only that language's catalog is downloaded, compiled at build time (lingui.config.ts).
// Components take their texts through useT(); code outside React through t().

export { i18n };
/** Every message id, from the English catalog: a text that is not in it does not compile. */
export type MessageId = keyof typeof english;
export type MessageValues = Record<string, string | number | Date | null | undefined>;

const catalogs: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import('../../../../../packages/protocol/catalogs/en.json?lingui'),
  de: () => import('../../../../../packages/protocol/catalogs/de.json?lingui'),
  fr: () => import('../../../../../packages/protocol/catalogs/fr.json?lingui'),
  es: () => import('../../../../../packages/protocol/catalogs/es.json?lingui'),
  'pt-BR': () => import('../../../../../packages/protocol/catalogs/pt-BR.json?lingui'),
  ar: () => import('../../../../../packages/protocol/catalogs/ar.json?lingui'),
};

/** Where this browser keeps the language chosen (the account's setting is copied here when it loads). */
const CHOICE_KEY = 'parley.language';

export function storedChoice(): Locale | null {
  try {
    const value = localStorage.getItem(CHOICE_KEY);
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

export const browserLocale = (): Locale =>
  localeFor(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));

/** The language the app starts in. */
export const startLocale = (): Locale => storedChoice() ?? browserLocale();

/** Loads a language's catalog and shows the app in it: the document's lang and direction follow. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (i18n.locale !== locale) {
    const { messages } = await catalogs[locale]();
    i18n.loadAndActivate({ locale, messages });
  }
  document.documentElement.lang = locale;
  document.documentElement.dir = isRtl(locale) ? 'rtl' : 'ltr';
}

/** A choice made in Settings (null: the browser's languages), kept in this browser and shown at once. */
export async function chooseLanguage(choice: Locale | null): Promise<void> {
  try {
    if (choice) localStorage.setItem(CHOICE_KEY, choice);
    else localStorage.removeItem(CHOICE_KEY);
  } catch {
    // Private mode: the account's setting still brings it back at the next sign-in.
  }
  await activateLocale(choice ?? browserLocale());
}

/**
 * The signed-in account's language, once its settings are read: it wins over this browser's earlier choice, so
 * a language chosen on one device follows the person to the next.
 */
export async function followAccount(language: Locale | null): Promise<void> {
  if (language !== storedChoice()) await chooseLanguage(language);
}

/** A text outside React (a toast, a title), in the active language. */
export const t = (id: MessageId, values?: MessageValues): string => i18n._(id, values);

/** The texts of a component, in the active language; it draws again when the language changes. */
export function useT(): (id: MessageId, values?: MessageValues) => string {
  const { i18n: active } = useLingui();
  return (id, values) => active._(id, values);
}
