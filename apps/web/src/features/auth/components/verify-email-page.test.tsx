import { I18nProvider } from '@lingui/react';
import { MSG } from '@parley/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n/i18n';
import { VerifyEmailPage } from './verify-email-page';

const draw = (state: Record<string, unknown>) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={[{ pathname: '/verify-email', state }]}>
          <VerifyEmailPage />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );

describe('VerifyEmailPage', () => {
  it("says the sign-up's mail could not be sent and offers to resend it", () => {
    const html = draw({ email: 'ada@example.test', isFromSignup: true, mailNotSent: true });
    expect(html).toContain(MSG.verificationNotSent);
    expect(html).toContain('Your account is created.');
    expect(html).toMatch(/<button[^>]*>(<[^>]+>)*Resend<\/button>|>Resend</);
    expect(html).not.toContain('We sent a 6-digit code to');
  });

  it('says the code was sent when it was', () => {
    const html = draw({ email: 'ada@example.test', isFromSignup: true });
    expect(html).toContain('We sent a 6-digit code to');
    expect(html).not.toContain(MSG.verificationNotSent);
  });
});
