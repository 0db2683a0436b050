import { describe, expect, it } from 'vitest';
import { isDarkUnder, parseThemeChoice } from './theme';

describe('theme choice', () => {
  it('reads a stored choice; anything else follows the system', () => {
    expect(parseThemeChoice('dark')).toBe('dark');
    expect(parseThemeChoice('light')).toBe('light');
    expect(parseThemeChoice(null)).toBe('system');
    expect(parseThemeChoice('purple')).toBe('system');
  });

  it('is dark when chosen, or when following a dark system', () => {
    expect(isDarkUnder('dark', false)).toBe(true);
    expect(isDarkUnder('light', true)).toBe(false);
    expect(isDarkUnder('system', true)).toBe(true);
    expect(isDarkUnder('system', false)).toBe(false);
  });
});
