// Dates on the own profile, in the reader's locale; a missing or unreadable date shows as a dash.
const valid = (value: string | null | undefined): Date | null => {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** 'March 15, 2026' (in the reader's locale). */
export function formatDate(value: string | null | undefined, locale?: string): string {
  return valid(value)?.toLocaleDateString(locale, { dateStyle: 'long' }) ?? '—';
}

/** 'Mar 15, 2026, 12:00 PM' (in the reader's locale). */
export function formatDateTime(value: string | null | undefined, locale?: string): string {
  return valid(value)?.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }) ?? '—';
}
