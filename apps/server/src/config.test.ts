import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('SOCKET_PING_SECONDS', () => {
  it('pings every 30 s unless set, in milliseconds for the sweep', () => {
    expect(loadConfig({}).socketPingMs).toBe(30_000);
    expect(loadConfig({ SOCKET_PING_SECONDS: '600' }).socketPingMs).toBe(600_000);
  });

  it('refuses a value that would ping too often, too seldom, or is no number', () => {
    for (const value of ['4', '3601', 'often', '2.5'])
      expect(() => loadConfig({ SOCKET_PING_SECONDS: value })).toThrow(
        /Invalid configuration: SOCKET_PING_SECONDS/,
      );
  });
});
