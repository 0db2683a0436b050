import { i18n, type Messages } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { isLocale, isRtl, type Locale, localeFor } from '@parley/protocol';
import type account from '../../../../../packages/protocol/catalogs/account/en.json';
import type admin from '../../../../../packages/protocol/catalogs/admin/en.json';
import type browse from '../../../../../packages/protocol/catalogs/browse/en.json';
import type english from '../../../../../packages/protocol/catalogs/en.json';
import type general from '../../../../../packages/protocol/catalogs/general/en.json';
import type groups from '../../../../../packages/protocol/catalogs/groups/en.json';

// The app's language: the person's choice (kept in this browser, and in their account's settings), else the
// browser's languages; only that language's catalogs are downloaded, compiled at build time (lingui.config.ts).
// Components take their texts through useT(); code outside React through t().

export { i18n };
/** Every message id, from the English catalogs: a text that is not in them does not compile. */
export type MessageId =
  | keyof typeof english
  | keyof typeof account
  | keyof typeof admin
  | keyof typeof browse
  | keyof typeof general
  | keyof typeof groups;
export type MessageValues = Record<string, string | number | Date | null | undefined>;

/** What the app may be shown in: a language, or the pseudo-locale that finds texts not from a catalog. */
export type ShownLocale = Locale | 'pseudo';

type Compiled = { messages: Messages };
// The core catalog and every area's, per language: each a chunk of its own, fetched only for the reader's.
const core = import.meta.glob<Compiled>('../../../../../packages/protocol/catalogs/*.json', {
  query: '?lingui',
});
const areas = import.meta.glob<Compiled>('../../../../../packages/protocol/catalogs/*/*.json', {
  query: '?lingui',
});

/** A language's messages: the core catalog and each area's, as one. */
async function messagesOf(locale: ShownLocale): Promise<Messages> {
  const loads = [
    ...Object.entries(core).filter(([path]) => path.endsWith(`/${locale}.json`)),
    ...Object.entries(areas).filter(([path]) => path.endsWith(`/${locale}.json`)),
  ].map(([, load]) => load());
  const parts = await Promise.all(loads);
  return Object.assign({}, ...parts.map((part) => part.messages));
}

/** The pseudo-locale's switch, for the browser tests: not a language anyone chooses. */
const PSEUDO_KEY = 'parley.pseudo';

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

function pseudoOn(): boolean {
  try {
    return localStorage.getItem(PSEUDO_KEY) === '1';
  } catch {
    return false;
  }
}

/** Loads a language's catalogs and shows the app in it: the document's lang and direction follow. */
export async function activateLocale(locale: Locale): Promise<void> {
  const shown: ShownLocale = pseudoOn() ? 'pseudo' : locale;
  if (i18n.locale !== shown) {
    // The pseudo-locale's times, dates and numbers are Russian's (Intl writes them in Cyrillic), so the browser
    // check can tell what Intl wrote, localized already, from a text no catalog gave.
    i18n.loadAndActivate({ locale: shown === 'pseudo' ? 'ru' : shown, messages: await messagesOf(shown) });
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
