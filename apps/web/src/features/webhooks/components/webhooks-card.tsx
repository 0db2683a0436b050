import type { Webhook, WebhookCreated } from '@parley/protocol';
import { Plug, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ErrorBanner, InfoNote } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SecretReveal } from '../../../components/ui/secret-reveal';
import { LoadingState } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { fieldErrors, isApiError, serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { intlLocale } from '../../../lib/text/locale-format';
import { toast } from '../../../lib/ui/toast';
import { useCreateWebhook, useRevokeWebhook, useWebhooks } from '../api/webhooks';
import '../lib/webhook-texts';

const createdOn = (iso: string) => new Date(iso).toLocaleDateString(intlLocale(), { dateStyle: 'medium' });

/** A hook just made: its address, which holds the secret, shown this once. */
function NewAddress({ hook, onDone }: { hook: WebhookCreated; onDone: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const t = useT();
  // A long settings page may have it below the fold: it is what the person came for.
  // Braces: the effect returns nothing (scrolling may return a promise, which React would take for a clean-up).
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
        <Slotted text={t('groups.webhooks.copyNow', { name: SLOT })}>
          <span translate="no">{hook.name}</span>
        </Slotted>
      </InfoNote>
      <SecretReveal label={t('groups.webhooks.url')} value={hook.url} />
      <p className="text-xs text-slate-600 dark:text-slate-400">
        <Slotted text={t('groups.webhooks.postJson', { example: SLOT })}>
          <code dir="ltr" translate="no" className="font-mono">
            {'{"text": "Build passed"}'}
          </code>
        </Slotted>
      </p>
      <Button onClick={onDone}>{t('groups.webhooks.saved')}</Button>
    </div>
  );
}

function WebhookRow({ hook, onRevoke }: { hook: Webhook; onRevoke: () => void }) {
  const t = useT();
  return (
    <li className="flex items-center gap-3 px-3 py-2.5">
      <Plug aria-hidden="true" className="size-5 shrink-0 text-slate-500 dark:text-slate-400" />
      <div className="min-w-0 flex-1">
        <p translate="no" className="truncate text-sm font-medium text-slate-900 dark:text-slate-100">
          {hook.name}
        </p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {t('groups.webhooks.createdOn', { date: createdOn(hook.created_at) })}
        </p>
      </div>
      <Button size="sm" variant="secondary" onClick={onRevoke}>
        <Trash2 aria-hidden="true" className="size-4" />
        {t('groups.webhooks.revoke')}
        <span className="sr-only" translate="no">
          {' '}
          {hook.name}
        </span>
      </Button>
    </li>
  );
}

/**
 * 'Webhooks' of a chat (a group's admins, either person of a private chat): the hooks that let an app or a
 * script post here, made with a name (the address shown once, with a copy button) and revoked after a
 * confirmation.
 */
export function WebhooksCard({ chatId }: { chatId: string }) {
  const titleId = useId();
  const hooks = useWebhooks(chatId);
  const create = useCreateWebhook(chatId);
  const revoke = useRevokeWebhook(chatId);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [fresh, setFresh] = useState<WebhookCreated | null>(null);
  const [revoking, setRevoking] = useState<Webhook | null>(null);
  const t = useT();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNameError(null);
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (hook) => {
          setName('');
          setFresh(hook);
        },
        onError: (e) => {
          const field = isApiError(e) ? fieldErrors(e.body).name : undefined;
          if (field) setNameError(localText(field));
          else toast.error(serverErrorOr(e, t('groups.webhooks.createFailed')));
        },
      },
    );
  };

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        setRevoking(null);
        toast.success(t('groups.webhooks.revoked'));
      },
      onError: (e) => {
        setRevoking(null);
        toast.error(serverErrorOr(e, t('groups.webhooks.revokeFailed')));
      },
    });
  };

  return (
    <Card>
      <CardHeader
        id={titleId}
        title={t('groups.webhooks.title')}
        description={t('groups.webhooks.description')}
      />
      <form
        onSubmit={submit}
        aria-label={t('groups.webhooks.new')}
        className="mt-4 flex flex-wrap items-end gap-2"
      >
        <div className="min-w-0 flex-1 basis-48">
          <TextField
            label={t('groups.webhooks.name')}
            value={name}
            required
            maxLength={60}
            placeholder={t('groups.webhooks.namePlaceholder')}
            error={nameError}
            disabled={create.isPending}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <Button type="submit" loading={create.isPending} className="w-full sm:w-auto">
          {t('groups.webhooks.create')}
        </Button>
      </form>
      {fresh && <NewAddress hook={fresh} onDone={() => setFresh(null)} />}
      <div className="mt-5">
        {hooks.isPending ? (
          <LoadingState label={t('groups.webhooks.loading')} />
        ) : hooks.isError ? (
          <ErrorBanner>{t('groups.webhooks.loadFailed')}</ErrorBanner>
        ) : hooks.data.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('groups.webhooks.none')}</p>
        ) : (
          <ul
            aria-labelledby={titleId}
            className="divide-y divide-slate-100 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
          >
            {hooks.data.map((hook) => (
              <WebhookRow key={hook.id} hook={hook} onRevoke={() => setRevoking(hook)} />
            ))}
          </ul>
        )}
      </div>
      <ConfirmDialog
        open={revoking !== null}
        title={
          revoking ? t('groups.webhooks.revokeName', { name: revoking.name }) : t('groups.webhooks.revokeThe')
        }
        confirmLabel={t('groups.webhooks.revokeHook')}
        danger
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={confirmRevoke}
      >
        {t('groups.webhooks.revokeBody')}
      </ConfirmDialog>
    </Card>
  );
}
