import { z } from 'zod';

// The languages Parley is written in, how a browser's languages pick one, and which of them read right to left.
// The texts themselves are catalogs (packages/protocol/catalogs/{locale}.json: message id → ICU message), one per
// language, English holding SPEC's wording; the web app loads only the reader's, the server all for its mail.

export const LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language by its own name, as the Language choice lists it. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  ar: 'العربية',
};

const RTL: ReadonlySet<Locale> = new Set<Locale>(['ar']);
export const isRtl = (locale: Locale): boolean => RTL.has(locale);

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/**
 * The first of a browser's languages (navigator.languages, or Accept-Language's tags in order) that Parley has:
 * the tag itself ('pt-BR'), else its language ('de-AT' → 'de', 'pt-PT' → 'pt-BR', the one Portuguese there is);
 * English when none is.
 */
export function localeFor(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const exact = LOCALES.find((l) => l.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const base = tag.split('-')[0]?.toLowerCase();
    const same = LOCALES.find((l) => l.split('-')[0]?.toLowerCase() === base);
    if (same) return same;
  }
  return DEFAULT_LOCALE;
}

/** The tags of an Accept-Language header, best first (weights honoured, '*' left out). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((l) => l.tag && l.tag !== '*' && l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((l) => l.tag);
}

/** A person's language in the settings API: one of LOCALES, or null to follow the browser's. */
export const languageSettingSchema = z.enum(LOCALES).nullable();
