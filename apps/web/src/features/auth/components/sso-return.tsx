import { TOTP_MSG } from '@parley/protocol';
import { type FormEvent, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { useSsoExchange } from '../api/exchange-sso';
import { totpRequired } from '../lib/auth-errors';
import { ssoLanding, takeSsoReturn } from '../lib/sso-landing';
import { TotpStep } from './totp-step';

/** Codes already sent for a session: a code is good once, and React may run an effect twice. */
const traded = new Set<string>();

export interface SsoReturn {
  /** The kind of error single sign-on came back with (the banner's text comes from the provider's name). */
  error: string | null;
  /** The one-time code waiting for the account's two-step code, while it does. */
  totpCode: string | null;
  dismissTotp: () => void;
}

/**
 * The auth screen's half of single sign-on: the fragment the server's callback left (`#sso=<code>` or
 * `#sso_error=<kind>`) is read once and taken out of the address and history at once, and the code traded for a
 * session, which signs the screen in (its redirect for signed-in people takes over).
 */
export function useSsoReturn(): SsoReturn {
  const location = useLocation();
  const navigate = useNavigate();
  const exchange = useSsoExchange();
  const [landing] = useState(() => ssoLanding(location.hash));
  const [totpCode, setTotpCode] = useState<string | null>(null);

  // Once, for the address the screen opened with.
  useEffect(() => {
    if (!landing) return;
    // Back from the provider with where the person was going, for the screen's redirect once signed in.
    const returnTo = takeSsoReturn();
    const state = returnTo ? { ...(location.state as object | null), from: returnTo } : location.state;
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state });
    if (!('code' in landing) || traded.has(landing.code)) return;
    traded.add(landing.code);
    exchange.mutate(
      { code: landing.code },
      { onError: (error) => totpRequired(error) && setTotpCode(landing.code) },
    );
  }, []);

  return {
    error: landing && 'error' in landing ? landing.error : null,
    totpCode,
    dismissTotp: () => setTotpCode(null),
  };
}

/** The second step of a single sign-on for an account with two-step sign-in: the app's or a recovery code. */
export function SsoTotpForm({ code, onBack }: { code: string; onBack: () => void }) {
  const t = useT();
  const exchange = useSsoExchange();
  const [totp, setTotp] = useState('');
  const [error, setError] = useState<string | undefined>();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const typed = totp.trim();
    if (!typed) return setError(localText(TOTP_MSG.codeRequired));
    exchange.mutate({ code, totp_code: typed });
  };
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label={t('auth.totp.form')}>
      <TotpStep
        code={totp}
        error={error}
        onChange={(value) => {
          setTotp(value);
          setError(undefined);
        }}
      />
      <Button type="submit" size="lg" className="w-full" loading={exchange.isPending}>
        {t('auth.verifyButton')}
      </Button>
      <Button variant="ghost" className="w-full" onClick={onBack}>
        {t('auth.back')}
      </Button>
    </form>
  );
}
