import type { Locale } from '@parley/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import ar from '../../../../../packages/protocol/catalogs/ar.json';
import de from '../../../../../packages/protocol/catalogs/de.json';
import en from '../../../../../packages/protocol/catalogs/en.json';
import fr from '../../../../../packages/protocol/catalogs/fr.json';
import { i18n } from '../i18n/i18n';
import { clockTime, dayText, fileSize, intlLocale, lastSeenWords } from './locale-format';
import { timeOf } from './time-format';

// Times, days, 'last seen' and sizes in the reader's language; English as SPEC writes it.

const catalogs: Partial<Record<Locale, Record<string, string>>> = { en, de, fr, ar };
const inLanguage = (locale: Locale) => i18n.loadAndActivate({ locale, messages: catalogs[locale] ?? en });

const now = new Date(2026, 10, 28, 15, 30);
const at = (y: number, m: number, d: number, h = 9, min = 5) => new Date(y, m, d, h, min);

afterAll(() => inLanguage('en'));

describe('English', () => {
  it('keeps the words and formats it had', () => {
    inLanguage('en');
    expect(dayText(at(2026, 10, 28), now)).toBe('Today');
    expect(dayText(at(2026, 10, 27), now)).toBe('Yesterday');
    expect(dayText(at(2026, 0, 3), now)).toBe('Jan 3, 2026');
    expect(timeOf(at(2026, 10, 28, 14, 3).toISOString())).toBe('02:03 PM');
    expect(lastSeenWords(new Date(now.getTime() - 20_000), now)).toBe('just now');
    expect(lastSeenWords(new Date(now.getTime() - 5 * 60_000), now)).toBe('5 min ago');
    expect(lastSeenWords(new Date(now.getTime() - 3 * 3_600_000), now)).toBe('3 hr ago');
    expect(
      [512, 1000, 14_000, 3 * 1024 * 1024, 3.2 * 1024 * 1024, 25 * 1024 * 1024].map((b) => fileSize(b)),
    ).toEqual(['512 B', '1000 B', '14 KB', '3.0 MB', '3.2 MB', '25 MB']);
  });
});

describe('German', () => {
  it('says Heute and Gestern, a 24-hour clock, and vor 5 Min.', () => {
    inLanguage('de');
    expect(intlLocale()).toBe('de');
    expect(dayText(at(2026, 10, 28), now)).toBe('Heute');
    expect(dayText(at(2026, 10, 27), now)).toBe('Gestern');
    expect(dayText(at(2026, 0, 3), now)).toBe('3. Jan. 2026');
    expect(clockTime(at(2026, 10, 28, 14, 3))).toBe('14:03');
    expect(lastSeenWords(new Date(now.getTime() - 5 * 60_000), now)).toBe('vor 5 Min.');
    expect(fileSize(3.2 * 1024 * 1024)).toBe('3,2 MB');
  });
});

describe('French', () => {
  it('writes days, sizes and times its own way', () => {
    inLanguage('fr');
    expect(dayText(at(2026, 10, 27), now)).toBe('Hier');
    expect(dayText(at(2026, 0, 3), now)).toBe('3 janv. 2026');
    expect(clockTime(at(2026, 10, 28, 14, 3))).toBe('14:03');
    expect(lastSeenWords(new Date(now.getTime() - 2 * 3_600_000), now)).toBe('il y a 2 h');
    expect(fileSize(3.2 * 1024 * 1024)).toBe('3,2 Mo');
  });
});

describe('Arabic', () => {
  it('counts minutes by its plural forms, in its own digits', () => {
    inLanguage('ar');
    const n = (value: number) => new Intl.NumberFormat('ar').format(value);
    const ago = (minutes: number) => lastSeenWords(new Date(now.getTime() - minutes * 60_000), now);
    expect(dayText(at(2026, 10, 28), now)).toBe('اليوم');
    expect(ago(1)).toBe('قبل دقيقة');
    expect(ago(2)).toBe('قبل دقيقتين');
    expect(ago(5)).toBe(`قبل ${n(5)} دقائق`);
    expect(ago(11)).toBe(`قبل ${n(11)} دقيقة`);
    expect(clockTime(at(2026, 10, 28, 14, 3))).toBe(
      new Intl.DateTimeFormat('ar', { hour: '2-digit', minute: '2-digit' }).format(at(2026, 10, 28, 14, 3)),
    );
  });
});
