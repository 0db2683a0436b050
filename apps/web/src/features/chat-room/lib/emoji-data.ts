// The emoji data (emojibase) that the emoji picker and the :shortcode completion read. Each is a hashed file of
// the build, served by Parley itself (the CSP allows no other host, and a self-hosted server may have no
// Internet), fetched only when one of them is first used. The picker reads the emoji's names and search words in
// the reader's language where emojibase has it (CLDR's names); Arabic has none there, so it reads English. The
// :shortcode completion keeps English shortcodes, as people type them in every language.
import de from 'emoji-picker-element-data/de/cldr/data.json?url';
import en from 'emoji-picker-element-data/en/emojibase/data.json?url';
import es from 'emoji-picker-element-data/es/cldr/data.json?url';
import fr from 'emoji-picker-element-data/fr/cldr/data.json?url';
import pt from 'emoji-picker-element-data/pt/cldr/data.json?url';

export const EMOJI_DATA_URL: string = en;

const BY_LANGUAGE: Record<string, { url: string; locale: string }> = {
  de: { url: de, locale: 'de' },
  es: { url: es, locale: 'es' },
  fr: { url: fr, locale: 'fr' },
  pt: { url: pt, locale: 'pt' },
};

/**
 * The picker's data for a document language (`de`, `pt-BR`…): its file and the locale the picker keeps it under
 * (its IndexedDB is one per locale, so two languages' names never mix); English for any other.
 */
export function emojiDataFor(lang: string): { url: string; locale: string } {
  return BY_LANGUAGE[lang.split('-')[0]?.toLowerCase() ?? ''] ?? { url: en, locale: 'en' };
}
