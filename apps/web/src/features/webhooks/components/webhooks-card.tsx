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
import { toast } from '../../../lib/ui/toast';
import { useCreateWebhook, useRevokeWebhook, useWebhooks } from '../api/webhooks';

const createdOn = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** A hook just made: its address, which holds the secret, shown this once. */
function NewAddress({ hook, onDone }: { hook: WebhookCreated; onDone: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
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
        Copy the address of “{hook.name}” now. It will not be shown again; anyone who has it can post here.
      </InfoNote>
      <SecretReveal label="Webhook URL" value={hook.url} />
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Post JSON such as <code className="font-mono">{'{"text": "Build passed"}'}</code> to it.
      </p>
      <Button onClick={onDone}>I have saved it</Button>
    </div>
  );
}

function WebhookRow({ hook, onRevoke }: { hook: Webhook; onRevoke: () => void }) {
  return (
    <li className="flex items-center gap-3 px-3 py-2.5">
      <Plug aria-hidden="true" className="size-5 shrink-0 text-slate-500 dark:text-slate-400" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100">{hook.name}</p>
        <p className="text-xs text-slate-600 dark:text-slate-400">Created {createdOn(hook.created_at)}</p>
      </div>
      <Button size="sm" variant="secondary" onClick={onRevoke}>
        <Trash2 aria-hidden="true" className="size-4" />
        Revoke<span className="sr-only"> {hook.name}</span>
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
          if (field) setNameError(field);
          else toast.error(serverErrorOr(e, 'Failed to create the webhook. Please try again.'));
        },
      },
    );
  };

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        setRevoking(null);
        toast.success('Webhook revoked');
      },
      onError: (e) => {
        setRevoking(null);
        toast.error(serverErrorOr(e, 'Failed to revoke the webhook. Please try again.'));
      },
    });
  };

  return (
    <Card>
      <CardHeader
        id={titleId}
        title="Webhooks"
        description="Apps and scripts post into this chat through a webhook's address; their messages carry an App badge."
      />
      <form onSubmit={submit} aria-label="New webhook" className="mt-4 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1 basis-48">
          <TextField
            label="Webhook name"
            value={name}
            required
            maxLength={60}
            placeholder="CI alerts"
            error={nameError}
            disabled={create.isPending}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <Button type="submit" loading={create.isPending} className="w-full sm:w-auto">
          Create webhook
        </Button>
      </form>
      {fresh && <NewAddress hook={fresh} onDone={() => setFresh(null)} />}
      <div className="mt-5">
        {hooks.isPending ? (
          <LoadingState label="Loading webhooks..." />
        ) : hooks.isError ? (
          <ErrorBanner>Failed to load the webhooks.</ErrorBanner>
        ) : hooks.data.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No webhooks yet.</p>
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
        title={`Revoke ${revoking?.name ?? 'the webhook'}?`}
        confirmLabel="Revoke webhook"
        danger
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={confirmRevoke}
      >
        Its address stops working at once. Messages it already posted stay.
      </ConfirmDialog>
    </Card>
  );
}
