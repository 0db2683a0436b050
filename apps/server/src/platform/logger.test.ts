import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger';

describe('redactUrl', () => {
  it('hides credentials in a logged address and keeps the rest', () => {
    expect(redactUrl('/ws/chat/x/?token=abc&ticket=def')).toBe(
      '/ws/chat/x/?token=[REDACTED]&ticket=[REDACTED]',
    );
    expect(redactUrl('/api/auth/oidc/callback?code=abc&state=def&iss=x')).toBe(
      '/api/auth/oidc/callback?code=[REDACTED]&state=[REDACTED]&iss=x',
    );
    expect(redactUrl('/api/chats/?limit=5')).toBe('/api/chats/?limit=5');
    // An incoming webhook's URL is its secret.
    expect(redactUrl('/hooks/s3cr3t?x=1')).toBe('/hooks/[REDACTED]?x=1');
    expect(redactUrl('/api/hooks/s3cr3t')).toBe('/api/hooks/s3cr3t');
  });
});
