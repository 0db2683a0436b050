import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SignInFirst } from './join-page';

const from = { pathname: '/join/abc123', search: '', hash: '', state: null, key: 'k' };

describe('SignInFirst', () => {
  it('asks someone signed out to sign up or log in first', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <SignInFirst from={from} />
      </MemoryRouter>,
    );
    expect(html).toContain('You&#x27;re invited to a group');
    expect(html).toMatch(/href="\/register"[^>]*>Sign Up</);
    expect(html).toMatch(/href="\/login"[^>]*>Login</);
  });
});
