import { describe, expect, it } from 'vitest';
import { channelsPath, directoryStatus } from './directory-texts';

describe('the channel directory', () => {
  it('asks for q and the cursor only when there are some', () => {
    expect(channelsPath('')).toBe('/channels/');
    expect(channelsPath('hill walk')).toBe('/channels/?q=hill+walk');
    expect(channelsPath('', 'bzIw')).toBe('/channels/?cursor=bzIw');
    expect(channelsPath('café&co', 'bzIw')).toBe('/channels/?q=caf%C3%A9%26co&cursor=bzIw');
  });

  it('tells screen readers what a search found', () => {
    expect(directoryStatus({ q: 'hill', searching: true, count: 0, more: false })).toBe('Searching...');
    expect(directoryStatus({ q: '', searching: false, count: 20, more: true })).toBe('');
    expect(directoryStatus({ q: 'hill', searching: false, count: 1, more: false })).toBe(
      '1 channel for "hill"',
    );
    expect(directoryStatus({ q: 'hill', searching: false, count: 20, more: true })).toBe(
      '20 channels shown for "hill"',
    );
  });
});
