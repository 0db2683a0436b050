import type { ApiToken, ApiTokenCreated } from '@parley/protocol';
import { KeyRound } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ErrorBanner, InfoNote } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { RadioCards } from '../../../components/ui/radio-cards';
import { SecretReveal } from '../../../components/ui/secret-reveal';
import { LoadingState } from '../../../components/ui/spinner';
import { inputClasses, TextField } from '../../../components/ui/text-field';
import { fieldErrors, isApiError, serverErrorOr } from '../../../lib/http/api-error';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { toast } from '../../../lib/ui/toast';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/api-tokens';
import { mediumDate } from '../lib/account-texts';

type Access = 'read' | 'write';
const ACCESS = [
  { value: 'read', label: 'account.tokens.read', description: 'account.tokens.readDescription' },
  { value: 'write', label: 'account.tokens.write', description: 'account.tokens.writeDescription' },
] satisfies { value: Access; label: MessageId; description: MessageId }[];

/** Days a new token lives; '' for never. */
const EXPIRIES = ['', '30', '90', '365'] as const;

/** A token's day in a sentence of the row ('Created {date}'), as a <time>. */
function Dated({ text, iso }: { text: string; iso: string }) {
  return (
    <Slotted text={text}>
      <time dateTime={iso}>{mediumDate(iso)}</time>
    </Slotted>
  );
}

/** A token just made: its secret, shown this once. */
function NewSecret({ token, onDone }: { token: ApiTokenCreated; onDone: () => void }) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <div
      ref={ref}
      className="mt-4 space-y-3 rounded-lg border border-amber-300 p-3 dark:border-amber-700"
      role="status"
    >
      <InfoNote>
        <Slotted text={t('account.tokens.copyNow', { name: SLOT })}>
          <span translate="no">{token.name}</span>
        </Slotted>
      </InfoNote>
      <SecretReveal
        label={t('account.tokens.secret')}
        copyLabel={t('account.tokens.copySecret')}
        value={token.token}
      />
      <p className="text-xs text-slate-600 dark:text-slate-400">
        <Slotted text={t('account.tokens.howToUse', { header: SLOT })}>
          <code translate="no" dir="ltr" className="font-mono">
            Authorization: Bearer …
          </code>
        </Slotted>
      </p>
      <Button onClick={onDone}>{t('account.tokens.saved')}</Button>
    </div>
  );
}

function TokenRow({ token, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  const t = useT();
  return (
    <li className="flex items-center gap-3 py-3">
      <KeyRound aria-hidden="true" className="size-5 shrink-0 text-slate-500 dark:text-slate-400" />
      <div className="min-w-0 flex-1">
        <p translate="no" className="truncate text-sm font-medium text-slate-900 dark:text-slate-100">
          {token.name}
        </p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {t(token.scopes.includes('write') ? 'account.tokens.write' : 'account.tokens.read')}
          {' · '}
          <Dated text={t('account.tokens.created', { date: SLOT })} iso={token.created_at} />
          {' · '}
          {token.expires_at ? (
            <Dated text={t('account.tokens.expires', { date: SLOT })} iso={token.expires_at} />
          ) : (
            t('account.tokens.neverExpires')
          )}
          {' · '}
          {token.last_used_at ? (
            <Dated text={t('account.tokens.lastUsed', { date: SLOT })} iso={token.last_used_at} />
          ) : (
            t('account.tokens.neverUsed')
          )}
        </p>
      </div>
      <Button size="sm" variant="secondary" onClick={onRevoke}>
        {t('account.tokens.revoke')}
        <span translate="no" className="sr-only">
          {' '}
          {token.name}
        </span>
      </Button>
    </li>
  );
}

function NewTokenForm({ onCreated }: { onCreated: (t: ApiTokenCreated) => void }) {
  const t = useT();
  const create = useCreateApiToken();
  const expiryId = useId();
  const [name, setName] = useState('');
  const [access, setAccess] = useState<Access>('read');
  const [expiry, setExpiry] = useState('90');
  const [nameError, setNameError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNameError(null);
    create.mutate(
      {
        name: name.trim(),
        scopes: access === 'write' ? ['read', 'write'] : ['read'],
        expires_in_days: expiry ? Number(expiry) : null,
      },
      {
        onSuccess: (created) => {
          setName('');
          onCreated(created);
        },
        onError: (e) => {
          const field = isApiError(e) ? fieldErrors(e.body).name : undefined;
          if (field) setNameError(field);
          else toast.error(serverErrorOr(e, t('account.tokens.createFailed')));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label={t('account.tokens.form')} className="mt-4 space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label={t('account.tokens.name')}
          value={name}
          required
          maxLength={60}
          placeholder={t('account.tokens.namePlaceholder')}
          error={nameError}
          disabled={create.isPending}
          onChange={(e) => setName(e.target.value)}
        />
        <div className="space-y-1.5">
          <label htmlFor={expiryId} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            {t('account.tokens.expiresAfter')}
          </label>
          <select
            id={expiryId}
            value={expiry}
            disabled={create.isPending}
            onChange={(e) => setExpiry(e.target.value)}
            className={inputClasses(false)}
          >
            {EXPIRIES.map((days) => (
              <option key={days} value={days}>
                {days ? t('account.tokens.days', { count: Number(days) }) : t('account.tokens.never')}
              </option>
            ))}
          </select>
        </div>
      </div>
      <RadioCards
        legend={t('account.tokens.access')}
        name="token-access"
        value={access}
        options={ACCESS.map((o) => ({ ...o, label: t(o.label), description: t(o.description) }))}
        onChange={setAccess}
        disabled={create.isPending}
      />
      <div className="flex justify-end">
        <Button type="submit" loading={create.isPending} className="w-full sm:w-auto">
          {t('account.tokens.create')}
        </Button>
      </div>
    </form>
  );
}

/**
 * Settings: personal access tokens for scripts and tools — made with a name, an access and an expiry, the secret
 * shown once with a copy button, listed with when they were last used, revoked after a confirmation.
 */
export function ApiTokensSection() {
  const t = useT();
  const titleId = useId();
  const tokens = useApiTokens();
  const revoke = useRevokeApiToken();
  const [fresh, setFresh] = useState<ApiTokenCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        setRevoking(null);
        toast.success(t('account.tokens.revoked'));
      },
      onError: (e) => {
        setRevoking(null);
        toast.error(serverErrorOr(e, t('account.tokens.revokeFailed')));
      },
    });
  };

  return (
    <Card>
      <CardHeader
        id={titleId}
        title={t('account.tokens.title')}
        description={t('account.tokens.description')}
      />
      {tokens.isPending ? (
        <LoadingState label={t('account.tokens.loading')} />
      ) : tokens.isError ? (
        <ErrorBanner>{t('account.tokens.loadFailed')}</ErrorBanner>
      ) : tokens.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('account.tokens.none')}</p>
      ) : (
        <ul aria-labelledby={titleId} className="divide-y divide-slate-100 dark:divide-slate-800">
          {tokens.data.map((token) => (
            <TokenRow key={token.id} token={token} onRevoke={() => setRevoking(token)} />
          ))}
        </ul>
      )}
      {fresh && <NewSecret token={fresh} onDone={() => setFresh(null)} />}
      <NewTokenForm onCreated={setFresh} />
      <ConfirmDialog
        open={revoking !== null}
        title={t('account.tokens.revokeTitle', { name: revoking?.name ?? '' })}
        confirmLabel={t('account.tokens.revokeConfirm')}
        danger
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={confirmRevoke}
      >
        {t('account.tokens.revokeText')}
      </ConfirmDialog>
    </Card>
  );
}
