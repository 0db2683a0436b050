import { useSyncExternalStore } from 'react';

// The colour theme: 'system' follows the device's light/dark setting, or a fixed choice kept per browser in
// localStorage. index.html's inline script applies the same rule before the first paint (no flash of the wrong
// theme); this module keeps <html> in step afterwards. The `dark` class on <html> is what Tailwind's `dark:`
// variant keys on (index.css).

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_STORAGE_KEY = 'theme';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

const DARK_QUERY = '(prefers-color-scheme: dark)';
const listeners = new Set<() => void>();

export const parseThemeChoice = (value: string | null): ThemeChoice =>
  value === 'light' || value === 'dark' ? value : 'system';

/** Whether the page is dark under a choice, given the system's preference. */
export const isDarkUnder = (choice: ThemeChoice, systemDark: boolean): boolean =>
  choice === 'dark' || (choice === 'system' && systemDark);

function readChoice(): ThemeChoice {
  try {
    return parseThemeChoice(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system';
  }
}

const systemDark = () => window.matchMedia?.(DARK_QUERY).matches ?? false;

function apply(choice: ThemeChoice) {
  const dark = isDarkUnder(choice, systemDark());
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', dark ? '#0f172a' : '#4f46e5');
}

export function setThemeChoice(choice: ThemeChoice) {
  try {
    if (choice === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage refused (private mode): the choice still holds for this page.
  }
  apply(choice);
  for (const l of listeners) l();
}

/** Keeps <html> in step with the system setting (while the choice is 'system') and with other tabs. */
export function watchTheme(): () => void {
  const media = window.matchMedia?.(DARK_QUERY);
  const onSystem = () => apply(readChoice());
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
    apply(readChoice());
    for (const l of listeners) l();
  };
  apply(readChoice());
  media?.addEventListener('change', onSystem);
  window.addEventListener('storage', onStorage);
  return () => {
    media?.removeEventListener('change', onSystem);
    window.removeEventListener('storage', onStorage);
  };
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The current choice, for the Settings control. */
export const useThemeChoice = (): ThemeChoice => useSyncExternalStore(subscribe, readChoice, () => 'system');
