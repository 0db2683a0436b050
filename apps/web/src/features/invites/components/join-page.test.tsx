import { I18nProvider } from '@lingui/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n/i18n';
import { SignInFirst } from './join-page';

const from = { pathname: '/join/abc123', search: '', hash: '', state: null, key: 'k' };

describe('SignInFirst', () => {
  it('asks someone signed out to sign up or log in first', () => {
    const html = renderToStaticMarkup(
      <I18nProvider i18n={i18n}>
        <MemoryRouter>
          <SignInFirst from={from} />
        </MemoryRouter>
      </I18nProvider>,
    );
    expect(html).toContain('You&#x27;re invited to a group');
    expect(html).toMatch(/href="\/register"[^>]*>Sign Up</);
    expect(html).toMatch(/href="\/login"[^>]*>Login</);
  });
});
