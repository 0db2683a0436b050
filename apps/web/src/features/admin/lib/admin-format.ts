import { t } from '../../../lib/i18n/i18n';
import { intlLocale } from '../../../lib/text/locale-format';

// The console's figures in the reader's language: counts, a chart's UTC days, dates and storage, through Intl.

/** A count as the reader's locale writes it ('1,234', '1.234', '١٬٢٣٤'). */
export const count = (value: number, locale: string = intlLocale()): string => value.toLocaleString(locale);

/**
 * A chart's day, given as YYYY-MM-DD in UTC: 'Nov 29, 2026' in the reader's way, or '11/29/26' in digits only
 * (where no element can mark it as a date, such as an SVG tooltip).
 */
export function utcDay(
  day: string,
  style: 'medium' | 'short' = 'medium',
  locale: string = intlLocale(),
): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString(locale, { dateStyle: style, timeZone: 'UTC' });
}

/** A date in the reader's way and time zone: 'Dec 6, 2026'. */
export const calendarDay = (at: string, locale: string = intlLocale()): string =>
  new Date(at).toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' });

const UNITS = [
  'admin.size.bytes',
  'admin.size.kb',
  'admin.size.mb',
  'admin.size.gb',
  'admin.size.tb',
] as const;

/** Bytes as people read them: '512 bytes', '1.2 MB', '3 GB'. */
export function storageSize(bytes: number, locale: string = intlLocale()): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit > 0 && value < 10 ? 1 : 0;
  const size = value.toLocaleString(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  });
  return t(UNITS[unit] ?? 'admin.size.bytes', { size });
}
