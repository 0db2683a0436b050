import { chatListTime } from '@parley/protocol';
import { i18n, t } from '../i18n/i18n';

// Times, days, 'last seen' and file sizes in the reader's language, through Intl: the language the app is shown
// in (i18n.locale), written the way this browser writes it when the browser speaks that language too (an English
// reader in Britain keeps a 24-hour clock, a German one in Austria 'Jän.'), else the language's own way.
// 'Today', 'Yesterday' and 'N min ago' come from the catalogs, so English keeps SPEC's words.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const baseOf = (tag: string) => tag.split('-')[0]?.toLowerCase();

const chosen = new Map<string, string>();

/** The Intl locale for the active language: this browser's own tag for it when it has one, else the language. */
export function intlLocale(active: string = i18n.locale || 'en'): string {
  let locale = chosen.get(active);
  if (locale === undefined) {
    locale = browserTagFor(active);
    chosen.set(active, locale);
  }
  return locale;
}

function browserTagFor(active: string): string {
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  const own = browser.find((tag) => tag && baseOf(tag) === baseOf(active));
  if (own) {
    try {
      if (Intl.DateTimeFormat.supportedLocalesOf(own).length > 0) return own;
    } catch {
      // A malformed tag: the language's own way below.
    }
  }
  return active;
}

// Building an Intl formatter is the costly part (see time-format.ts): one per locale and kind, kept.
const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function cached<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  let format = formats.get(key) as F | undefined;
  if (!format) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

/** Hours and minutes as the reader's locale writes them ('14:03', '2:03 PM'). */
export function clockTime(at: string | Date, locale: string = intlLocale()): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return 'Invalid Date';
  return cached(
    `time:${locale}`,
    () => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }),
  ).format(date);
}

/** A message's date and time in full (a bubble's title). */
export function fullDateTime(at: string | Date, locale: string = intlLocale()): string {
  return cached(
    `full:${locale}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
  ).format(new Date(at));
}

/** Whole local days between a moment and now: 0 today, 1 yesterday. */
function daysAgo(date: Date, now: Date): number {
  const startOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  return Math.round((startOf(now) - startOf(date)) / DAY);
}

/** A chat room's day heading: 'Today', 'Yesterday', or a short date with year, in the reader's language. */
export function dayText(at: string | Date, now: Date = new Date(), locale: string = intlLocale()): string {
  const date = new Date(at);
  const days = daysAgo(date, now);
  if (days === 0) return t('time.today');
  if (days === 1) return t('time.yesterday');
  return cached(
    `day:${locale}`,
    () => new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', year: 'numeric' }),
  ).format(date);
}

/** The chat list's time of a last message: the time of day under 24 h, else a short month and day. */
export const listTime = (at: string | Date, now: Date = new Date()): string =>
  chatListTime(at, now, intlLocale());

/** 'just now', '5 min ago', '3 hr ago', else a full date and time: when a person was last seen. */
export function lastSeenWords(at: string | Date, now: Date = new Date()): string {
  const date = new Date(at);
  const diff = Math.max(0, now.getTime() - date.getTime());
  if (diff < MINUTE) return t('time.justNow');
  if (diff < HOUR) return t('time.minutesAgo', { count: Math.floor(diff / MINUTE) });
  if (diff < DAY) return t('time.hoursAgo', { count: Math.floor(diff / HOUR) });
  return fullDateTime(date);
}

/** '512 B', '14 KB', '3.2 MB' ('3,2 Mo' in French): a file's size. */
export function fileSize(bytes: number, locale: string = intlLocale()): string {
  // One decimal below 10 MB ('3.0 MB'), whole numbers otherwise; no thousands separator ('1000 B').
  const number = (value: number, digits: number) =>
    cached(
      `n${digits}:${locale}`,
      () =>
        new Intl.NumberFormat(locale, {
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
          useGrouping: false,
        }),
    ).format(value);
  if (bytes < 1024) return t('size.bytes', { size: number(bytes, 0) });
  if (bytes < 1024 * 1024) return t('size.kb', { size: number(Math.round(bytes / 1024), 0) });
  const mb = bytes / (1024 * 1024);
  return t('size.mb', { size: mb < 10 ? number(mb, 1) : number(Math.round(mb), 0) });
}
