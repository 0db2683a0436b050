import { describe, expect, it } from 'vitest';
import { describeUserAgent, toSessionInfo } from './session-view';

describe('the sessions list names where a session signed in from', () => {
  it('reads device, browser and system from common User-Agents', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toEqual({ device: 'Desktop', browser: 'Chrome 131', os: expect.stringMatching(/^Windows/) });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      ),
    ).toMatchObject({ device: 'Mobile', browser: 'Chrome 131', os: 'Android 14' });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPad; CPU OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1',
      ),
    ).toMatchObject({ device: 'Tablet', browser: 'Safari 17', os: 'iOS 17.2' });
  });

  it('says so when it cannot tell', () => {
    const unknown = { device: 'Unknown device', browser: 'Unknown browser', os: 'Unknown system' };
    expect(describeUserAgent(null)).toEqual(unknown);
    expect(describeUserAgent('curl/8.5.0')).toMatchObject({ device: 'Unknown device', os: 'Unknown system' });
  });

  it('marks the caller’s session and falls back to the sign-in time for last active', () => {
    const row = {
      id: 7,
      user_agent: null,
      ip: '10.0.0.1',
      created_at: '2026-01-01T00:00:00.000Z',
      last_active_at: null,
    };
    expect(toSessionInfo(row, 7)).toMatchObject({
      id: 7,
      current: true,
      last_active: row.created_at,
      ip: '10.0.0.1',
    });
    expect(toSessionInfo({ ...row, last_active_at: '2026-01-02T00:00:00.000Z' }, 8)).toMatchObject({
      current: false,
      last_active: '2026-01-02T00:00:00.000Z',
    });
  });
});
