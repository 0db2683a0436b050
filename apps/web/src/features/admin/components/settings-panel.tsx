import type { BotCreators, InviteLink, SignupMode, SiteSettings } from '@parley/protocol';
import { Copy, Link2 } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { ErrorBanner, InfoNote } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { type RadioCardOption, RadioCards } from '../../../components/ui/radio-cards';
import { LoadingState } from '../../../components/ui/spinner';
import { inputClasses } from '../../../components/ui/text-field';
import { fieldErrors, serverErrorOr } from '../../../lib/http/api-error';
import { cn } from '../../../lib/ui/cn';
import { useCreateInvite, useRevokeInvite, useSaveSettings, useSiteSettings } from '../api/admin-api';
import { ActionDialog } from './action-dialog';
import { Labeled } from './parts';

const MODES: { mode: SignupMode; label: string; hint: string }[] = [
  { mode: 'open', label: 'Open', hint: 'Anyone can sign up.' },
  { mode: 'closed', label: 'Closed', hint: 'Only people with an invite link can sign up.' },
  {
    mode: 'domains',
    label: 'Email domains',
    hint: 'Only addresses at the domains below, or with an invite link.',
  },
];

function SignupSettings({ mode, domains }: { mode: SignupMode; domains: string[] }) {
  const domainsId = useId();
  const [chosen, setChosen] = useState(mode);
  const [text, setText] = useState(domains.join('\n'));
  const save = useSaveSettings();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setChosen(mode);
    setText(domains.join('\n'));
  }, [mode, domains]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const list = text
      .split(/[\s,]+/)
      .map((d) => d.trim())
      .filter(Boolean);
    save.mutate({ signups: chosen, domains: list }, { onSuccess: () => setSaved(true) });
  };
  const errors = save.error ? fieldErrors((save.error as { body?: unknown }).body) : {};

  return (
    <Card>
      <CardHeader title="Sign-ups" description="Who may create an account on this server." />
      <form onSubmit={submit} className="mt-4 space-y-4">
        <fieldset className="space-y-2">
          <legend className="sr-only">Sign-ups</legend>
          {MODES.map((m) => (
            <label
              key={m.mode}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm',
                chosen === m.mode
                  ? 'border-brand-500 bg-brand-50 dark:border-brand-400 dark:bg-brand-500/15'
                  : 'border-slate-200 dark:border-slate-800',
              )}
            >
              <input
                type="radio"
                name="signups"
                value={m.mode}
                checked={chosen === m.mode}
                onChange={() => setChosen(m.mode)}
                className="mt-0.5"
              />
              <span>
                <span className="block font-medium text-slate-900 dark:text-slate-100">{m.label}</span>
                <span className="text-slate-600 dark:text-slate-400">{m.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {chosen === 'domains' && (
          <div className="space-y-1.5">
            <label
              htmlFor={domainsId}
              className="block text-sm font-medium text-slate-700 dark:text-slate-300"
            >
              Email domains (one a line)
            </label>
            <textarea
              id={domainsId}
              rows={3}
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-invalid={errors.domains ? true : undefined}
              placeholder="example.org"
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            />
            {errors.domains && (
              <p className="text-xs font-medium text-red-600 dark:text-red-400">{errors.domains}</p>
            )}
          </div>
        )}
        {save.error && !errors.domains && (
          <ErrorBanner>{serverErrorOr(save.error, 'Could not save.')}</ErrorBanner>
        )}
        <div className="flex items-center gap-3">
          <Button type="submit" loading={save.isPending}>
            Save sign-ups
          </Button>
          {saved && (
            <span role="status" className="text-sm text-green-700 dark:text-green-300">
              Saved.
            </span>
          )}
        </div>
      </form>
    </Card>
  );
}

function InviteRow({ invite, onRevoke }: { invite: InviteLink; onRevoke: () => void }) {
  const [copied, setCopied] = useState(false);
  const url = new URL(invite.url, window.location.origin).toString();
  const limits = [
    invite.max_uses === null ? `${invite.uses} used` : `${invite.uses} of ${invite.max_uses} used`,
    invite.expires_at ? `expires ${new Date(invite.expires_at).toLocaleDateString()}` : 'never expires',
  ].join(', ');
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3">
      <div className="min-w-0">
        <p
          className={cn(
            'truncate font-mono text-xs',
            invite.usable
              ? 'text-slate-900 dark:text-slate-100'
              : 'text-slate-500 line-through dark:text-slate-400',
          )}
        >
          {url}
        </p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {invite.revoked_at ? 'Revoked' : invite.usable ? 'Usable' : 'Used up or expired'} · {limits}
          {invite.created_by?.username ? ` · by @${invite.created_by.username}` : ''}
        </p>
      </div>
      {invite.usable && (
        <div className="flex gap-1">
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Copy invite link ${invite.id}`}
            onClick={() => {
              void navigator.clipboard?.writeText(url).then(() => setCopied(true));
            }}
          >
            <Copy aria-hidden="true" className="size-4" />
            {copied ? 'Copied' : 'Copy'}
          </Button>
          <Button size="sm" variant="secondary" className="text-red-700 dark:text-red-300" onClick={onRevoke}>
            Revoke
          </Button>
        </div>
      )}
    </li>
  );
}

function Invites({ invites }: { invites: InviteLink[] }) {
  const [days, setDays] = useState('7');
  const [uses, setUses] = useState('');
  const create = useCreateInvite();
  const revoke = useRevokeInvite();
  const [revoking, setRevoking] = useState<InviteLink | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({
      expires_in_days: days === 'never' ? null : Number(days),
      max_uses: uses.trim() ? Number(uses) : null,
    });
  };

  return (
    <Card>
      <CardHeader
        title="Invite links"
        description="A person with a usable link can sign up even while sign-ups are closed or limited."
      />
      <form onSubmit={submit} className="mt-4 flex flex-wrap items-end gap-3">
        <Labeled label="Expires after">
          {(id) => (
            <select
              id={id}
              value={days}
              onChange={(e) => setDays(e.target.value)}
              className={inputClasses(false)}
            >
              <option value="1">1 day</option>
              <option value="7">7 days</option>
              <option value="30">30 days</option>
              <option value="never">Never</option>
            </select>
          )}
        </Labeled>
        <Labeled label="Uses (empty: no limit)">
          {(id) => (
            <input
              id={id}
              type="number"
              min={1}
              max={10000}
              value={uses}
              onChange={(e) => setUses(e.target.value)}
              className={cn(inputClasses(false), 'w-36')}
            />
          )}
        </Labeled>
        <Button type="submit" loading={create.isPending}>
          <Link2 aria-hidden="true" className="size-4" />
          Create invite link
        </Button>
      </form>
      {create.error && (
        <ErrorBanner className="mt-3">
          {serverErrorOr(create.error, 'Could not create the link.')}
        </ErrorBanner>
      )}
      {invites.length === 0 ? (
        <InfoNote className="mt-4">No invite links yet.</InfoNote>
      ) : (
        <ul aria-label="Invite links" className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
          {invites.map((i) => (
            <InviteRow key={i.id} invite={i} onRevoke={() => setRevoking(i)} />
          ))}
        </ul>
      )}
      {revoking && (
        <ActionDialog
          title="Revoke this invite link?"
          confirmLabel="Revoke"
          danger
          onConfirm={(note) => revoke.mutateAsync({ id: revoking.id, note })}
          onClose={() => setRevoking(null)}
        >
          Nobody can sign up with it any more. People who already did keep their accounts.
        </ActionDialog>
      )}
    </Card>
  );
}

/** Server settings: sign-ups (open, closed, email domains) and invite links. */
const BOT_CHOICES: RadioCardOption<BotCreators>[] = [
  { value: 'everyone', label: 'Everyone', description: 'Any verified person may create bots.' },
  { value: 'admins', label: 'Site admins only', description: 'Only site admins may create bots.' },
];

/** Who may create bots on this server; saved with the sign-up settings as they are. */
function BotSettings({ settings }: { settings: SiteSettings }) {
  const [chosen, setChosen] = useState(settings.bot_creators);
  const save = useSaveSettings();
  const [saved, setSaved] = useState(false);
  useEffect(() => setChosen(settings.bot_creators), [settings.bot_creators]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    save.mutate(
      { signups: settings.signups, domains: settings.domains, bot_creators: chosen },
      { onSuccess: () => setSaved(true) },
    );
  };
  return (
    <Card>
      <CardHeader title="Bots" description="Who may create bots on this server." />
      <form onSubmit={submit} className="mt-4 space-y-4">
        <RadioCards
          legend="Who may create bots"
          name="bot-creators"
          value={chosen}
          options={BOT_CHOICES}
          onChange={setChosen}
        />
        {save.error && <ErrorBanner>{serverErrorOr(save.error, 'Could not save.')}</ErrorBanner>}
        <div className="flex items-center gap-3">
          <Button type="submit" loading={save.isPending}>
            Save bots
          </Button>
          {saved && (
            <span role="status" className="text-sm text-green-700 dark:text-green-300">
              Saved.
            </span>
          )}
        </div>
      </form>
    </Card>
  );
}

export function SettingsPanel() {
  const settings = useSiteSettings();
  if (settings.isPending) return <LoadingState />;
  if (!settings.data) return <ErrorBanner>Could not load the settings.</ErrorBanner>;
  return (
    <>
      <SignupSettings mode={settings.data.signups} domains={settings.data.domains} />
      <Invites invites={settings.data.invites} />
      <BotSettings settings={settings.data} />
    </>
  );
}
