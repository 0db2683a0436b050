import type { SessionInfo } from '@parley/protocol';
import Bowser from 'bowser';

// A session as its owner sees it in Settings: the device, browser and system named from the User-Agent it signed
// in with (bowser), where from, and when.

const DEVICE: Record<string, string> = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet', tv: 'TV' };

/** The version's first part ('Chrome 131'), or the name alone. */
const named = (name: string | undefined, version: string | undefined, unknown: string): string => {
  if (!name) return unknown;
  const major = version?.split('.')[0];
  return major ? `${name} ${major}` : name;
};

export function describeUserAgent(userAgent: string | null): Pick<SessionInfo, 'device' | 'browser' | 'os'> {
  if (!userAgent) return { device: 'Unknown device', browser: 'Unknown browser', os: 'Unknown system' };
  const parsed = Bowser.parse(userAgent);
  return {
    device: DEVICE[parsed.platform.type ?? ''] ?? 'Unknown device',
    browser: named(parsed.browser.name, parsed.browser.version, 'Unknown browser'),
    os: parsed.os.name ? [parsed.os.name, parsed.os.version].filter(Boolean).join(' ') : 'Unknown system',
  };
}

export function toSessionInfo(
  row: {
    id: number;
    user_agent: string | null;
    ip: string | null;
    created_at: string;
    last_active_at: string | null;
  },
  currentId: number,
): SessionInfo {
  return {
    id: row.id,
    ...describeUserAgent(row.user_agent),
    ip: row.ip,
    created_at: row.created_at,
    last_active: row.last_active_at ?? row.created_at,
    current: row.id === currentId,
  };
}
