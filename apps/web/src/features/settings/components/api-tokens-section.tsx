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
import { toast } from '../../../lib/ui/toast';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/api-tokens';

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

type Access = 'read' | 'write';
const ACCESS = [
  { value: 'read', label: 'Read', description: 'Read chats and messages, receive them live.' },
  { value: 'write', label: 'Read and write', description: 'Also send and change messages.' },
] satisfies { value: Access; label: string; description: string }[];

/** Days a new token lives; '' for never. */
const EXPIRIES = [
  { days: '', label: 'Never' },
  { days: '30', label: '30 days' },
  { days: '90', label: '90 days' },
  { days: '365', label: '365 days' },
] as const;

const scopesText = (t: ApiToken) => (t.scopes.includes('write') ? 'Read and write' : 'Read');

/** A token just made: its secret, shown this once. */
function NewSecret({ token, onDone }: { token: ApiTokenCreated; onDone: () => void }) {
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
      <InfoNote>Copy the token “{token.name}” now. It will not be shown again.</InfoNote>
      <SecretReveal label="API token" value={token.token} />
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Send it as <code className="font-mono">Authorization: Bearer …</code> to the API.
      </p>
      <Button onClick={onDone}>I have saved it</Button>
    </div>
  );
}

function TokenRow({ token, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  return (
    <li className="flex items-center gap-3 py-3">
      <KeyRound aria-hidden="true" className="size-5 shrink-0 text-slate-500 dark:text-slate-400" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100">{token.name}</p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {scopesText(token)} · Created {day(token.created_at)} ·{' '}
          {token.expires_at ? `Expires ${day(token.expires_at)}` : 'Never expires'} ·{' '}
          {token.last_used_at ? `Last used ${day(token.last_used_at)}` : 'Never used'}
        </p>
      </div>
      <Button size="sm" variant="secondary" onClick={onRevoke}>
        Revoke<span className="sr-only"> {token.name}</span>
      </Button>
    </li>
  );
}

function NewTokenForm({ onCreated }: { onCreated: (t: ApiTokenCreated) => void }) {
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
        onSuccess: (t) => {
          setName('');
          onCreated(t);
        },
        onError: (e) => {
          const field = isApiError(e) ? fieldErrors(e.body).name : undefined;
          if (field) setNameError(field);
          else toast.error(serverErrorOr(e, 'Failed to create the token. Please try again.'));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label="New API token" className="mt-4 space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Token name"
          value={name}
          required
          maxLength={60}
          placeholder="Deploy script"
          error={nameError}
          disabled={create.isPending}
          onChange={(e) => setName(e.target.value)}
        />
        <div className="space-y-1.5">
          <label htmlFor={expiryId} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            Expires after
          </label>
          <select
            id={expiryId}
            value={expiry}
            disabled={create.isPending}
            onChange={(e) => setExpiry(e.target.value)}
            className={inputClasses(false)}
          >
            {EXPIRIES.map((choice) => (
              <option key={choice.label} value={choice.days}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <RadioCards
        legend="Access"
        name="token-access"
        value={access}
        options={ACCESS}
        onChange={setAccess}
        disabled={create.isPending}
      />
      <div className="flex justify-end">
        <Button type="submit" loading={create.isPending} className="w-full sm:w-auto">
          Create token
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
        toast.success('Token revoked');
      },
      onError: (e) => {
        setRevoking(null);
        toast.error(serverErrorOr(e, 'Failed to revoke the token. Please try again.'));
      },
    });
  };

  return (
    <Card>
      <CardHeader
        id={titleId}
        title="API tokens"
        description="A token lets a script or a tool use Parley's API as you. It cannot change your password, email, sign-in or tokens."
      />
      {tokens.isPending ? (
        <LoadingState label="Loading tokens..." />
      ) : tokens.isError ? (
        <ErrorBanner>Failed to load the tokens.</ErrorBanner>
      ) : tokens.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">You have no API tokens.</p>
      ) : (
        <ul aria-labelledby={titleId} className="divide-y divide-slate-100 dark:divide-slate-800">
          {tokens.data.map((t) => (
            <TokenRow key={t.id} token={t} onRevoke={() => setRevoking(t)} />
          ))}
        </ul>
      )}
      {fresh && <NewSecret token={fresh} onDone={() => setFresh(null)} />}
      <NewTokenForm onCreated={setFresh} />
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? 'the token'}?`}
        confirmLabel="Revoke token"
        danger
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={confirmRevoke}
      >
        Whatever uses it is refused from now on, and its live connections close.
      </ConfirmDialog>
    </Card>
  );
}
