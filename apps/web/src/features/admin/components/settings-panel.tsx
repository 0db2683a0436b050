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
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import { Slots, slotsFor } from '../../../lib/i18n/slotted';
import { cn } from '../../../lib/ui/cn';
import { useCreateInvite, useRevokeInvite, useSaveSettings, useSiteSettings } from '../api/admin-api';
import { calendarDay, count } from '../lib/admin-format';
import { ActionDialog } from './action-dialog';
import { Handle, Labeled } from './parts';

const MODES: { mode: SignupMode; label: MessageId; hint: MessageId }[] = [
  { mode: 'open', label: 'admin.signups.open', hint: 'admin.signups.openHint' },
  { mode: 'closed', label: 'admin.signups.closed', hint: 'admin.signups.closedHint' },
  { mode: 'domains', label: 'admin.signups.domains', hint: 'admin.signups.domainsHint' },
];

function SignupSettings({ mode, domains }: { mode: SignupMode; domains: string[] }) {
  const t = useT();
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
      <CardHeader title={t('admin.signups.title')} description={t('admin.signups.description')} />
      <form onSubmit={submit} className="mt-4 space-y-4">
        <fieldset className="space-y-2">
          <legend className="sr-only">{t('admin.signups.title')}</legend>
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
                <span className="block font-medium text-slate-900 dark:text-slate-100">{t(m.label)}</span>
                <span className="text-slate-600 dark:text-slate-400">{t(m.hint)}</span>
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
              {t('admin.signups.domainsLabel')}
            </label>
            <textarea
              id={domainsId}
              rows={3}
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-invalid={errors.domains ? true : undefined}
              placeholder="example.org"
              dir="ltr"
              translate="no"
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            />
            {errors.domains && (
              <p className="text-xs font-medium text-red-600 dark:text-red-400">{errors.domains}</p>
            )}
          </div>
        )}
        {save.error && !errors.domains && (
          <ErrorBanner>{serverErrorOr(save.error, t('admin.settings.saveFailed'))}</ErrorBanner>
        )}
        <div className="flex items-center gap-3">
          <Button type="submit" loading={save.isPending}>
            {t('admin.signups.save')}
          </Button>
          {saved && (
            <span role="status" className="text-sm text-green-700 dark:text-green-300">
              {t('admin.settings.saved')}
            </span>
          )}
        </div>
      </form>
    </Card>
  );
}

function InviteRow({ invite, onRevoke }: { invite: InviteLink; onRevoke: () => void }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const url = new URL(invite.url, window.location.origin).toString();
  const state = invite.revoked_at
    ? t('admin.invites.revoked')
    : invite.usable
      ? t('admin.invites.usable')
      : t('admin.invites.usedUp');
  const uses =
    invite.max_uses === null
      ? t('admin.invites.uses', { count: invite.uses })
      : t('admin.invites.usesOf', { uses: count(invite.uses), max: count(invite.max_uses) });
  const expiry = invite.expires_at ? (
    <Slots
      text={t('admin.invites.expires', slotsFor(['date']))}
      nodes={[
        <time key="date" dateTime={invite.expires_at}>
          {calendarDay(invite.expires_at)}
        </time>,
      ]}
    />
  ) : (
    t('admin.invites.neverExpires')
  );
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3">
      <div className="min-w-0">
        <p
          dir="ltr"
          translate="no"
          className={cn(
            'truncate text-start font-mono text-xs',
            invite.usable
              ? 'text-slate-900 dark:text-slate-100'
              : 'text-slate-500 line-through dark:text-slate-400',
          )}
        >
          {url}
        </p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          <Slots text={t('admin.invites.state', { state, uses, ...slotsFor(['expiry']) })} nodes={[expiry]} />
          {invite.created_by?.username && (
            <>
              {' · '}
              <Slots
                text={t('admin.invites.by', slotsFor(['username']))}
                nodes={[<Handle key="username" username={invite.created_by.username} />]}
              />
            </>
          )}
        </p>
      </div>
      {invite.usable && (
        <div className="flex gap-1">
          <Button
            size="sm"
            variant="ghost"
            aria-label={t('admin.invites.copyLabel', { id: invite.id })}
            onClick={() => {
              void navigator.clipboard?.writeText(url).then(() => setCopied(true));
            }}
          >
            <Copy aria-hidden="true" className="size-4" />
            {copied ? t('admin.invites.copied') : t('admin.invites.copy')}
          </Button>
          <Button size="sm" variant="secondary" className="text-red-700 dark:text-red-300" onClick={onRevoke}>
            {t('admin.invites.revoke')}
          </Button>
        </div>
      )}
    </li>
  );
}

function Invites({ invites }: { invites: InviteLink[] }) {
  const t = useT();
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
      <CardHeader title={t('admin.invites.title')} description={t('admin.invites.description')} />
      <form onSubmit={submit} className="mt-4 flex flex-wrap items-end gap-3">
        <Labeled label={t('admin.invites.expiresAfter')}>
          {(id) => (
            <select
              id={id}
              value={days}
              onChange={(e) => setDays(e.target.value)}
              className={inputClasses(false)}
            >
              {[1, 7, 30].map((n) => (
                <option key={n} value={String(n)}>
                  {t('admin.invites.days', { count: n })}
                </option>
              ))}
              <option value="never">{t('admin.invites.never')}</option>
            </select>
          )}
        </Labeled>
        <Labeled label={t('admin.invites.maxUses')}>
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
          {t('admin.invites.create')}
        </Button>
      </form>
      {create.error && (
        <ErrorBanner className="mt-3">
          {serverErrorOr(create.error, t('admin.invites.createFailed'))}
        </ErrorBanner>
      )}
      {invites.length === 0 ? (
        <InfoNote className="mt-4">{t('admin.invites.none')}</InfoNote>
      ) : (
        <ul
          aria-label={t('admin.invites.title')}
          className="mt-4 divide-y divide-slate-200 dark:divide-slate-800"
        >
          {invites.map((i) => (
            <InviteRow key={i.id} invite={i} onRevoke={() => setRevoking(i)} />
          ))}
        </ul>
      )}
      {revoking && (
        <ActionDialog
          title={t('admin.invites.revokeTitle')}
          confirmLabel={t('admin.invites.revoke')}
          danger
          onConfirm={(note) => revoke.mutateAsync({ id: revoking.id, note })}
          onClose={() => setRevoking(null)}
        >
          {t('admin.invites.revokeSay')}
        </ActionDialog>
      )}
    </Card>
  );
}

/** Who may create bots on this server; saved with the sign-up settings as they are. */
function BotSettings({ settings }: { settings: SiteSettings }) {
  const t = useT();
  const choices: RadioCardOption<BotCreators>[] = [
    { value: 'everyone', label: t('admin.bots.everyone'), description: t('admin.bots.everyoneHint') },
    { value: 'admins', label: t('admin.bots.admins'), description: t('admin.bots.adminsHint') },
  ];
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
      <CardHeader title={t('admin.bots.title')} description={t('admin.bots.description')} />
      <form onSubmit={submit} className="mt-4 space-y-4">
        <RadioCards
          legend={t('admin.bots.legend')}
          name="bot-creators"
          value={chosen}
          options={choices}
          onChange={setChosen}
        />
        {save.error && <ErrorBanner>{serverErrorOr(save.error, t('admin.settings.saveFailed'))}</ErrorBanner>}
        <div className="flex items-center gap-3">
          <Button type="submit" loading={save.isPending}>
            {t('admin.bots.save')}
          </Button>
          {saved && (
            <span role="status" className="text-sm text-green-700 dark:text-green-300">
              {t('admin.settings.saved')}
            </span>
          )}
        </div>
      </form>
    </Card>
  );
}

/** Server settings: sign-ups (open, closed, email domains), invite links and who may create bots. */
export function SettingsPanel() {
  const t = useT();
  const settings = useSiteSettings();
  if (settings.isPending) return <LoadingState />;
  if (!settings.data) return <ErrorBanner>{t('admin.settings.loadFailed')}</ErrorBanner>;
  return (
    <>
      <SignupSettings mode={settings.data.signups} domains={settings.data.domains} />
      <Invites invites={settings.data.invites} />
      <BotSettings settings={settings.data} />
    </>
  );
}
