import type { Bot, BotCredentials } from '@parley/protocol';
import { Bot as BotIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ErrorBanner, InfoNote } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SecretReveal } from '../../../components/ui/secret-reveal';
import { LoadingState } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { TextField } from '../../../components/ui/text-field';
import { fieldErrors, isApiError, serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { fullDateTime } from '../../../lib/text/locale-format';
import { toast } from '../../../lib/ui/toast';
import {
  useAddBotCommand,
  useBotCommands,
  useBotDeliveries,
  useBots,
  useCreateBot,
  useDeleteBot,
  useRemoveBotCommand,
  useRotateBot,
  useUpdateBot,
} from '../api/bots';
import '../lib/account-texts';

/** A bot's name, as its owner wrote it. */
const Name = ({ bot }: { bot: Bot }) => <span translate="no">{bot.display_name}</span>;

/** The token and signing secret of a bot just made or rotated: shown this once. */
function Credentials({ credentials, onDone }: { credentials: BotCredentials; onDone: () => void }) {
  const t = useT();
  return (
    <div className="space-y-3 rounded-lg border border-amber-300 p-3 dark:border-amber-700" role="status">
      <InfoNote>
        <Slotted text={t('account.bots.copyNow', { username: SLOT })}>
          <span translate="no" dir="ltr">
            @{credentials.bot.username}
          </span>
        </Slotted>
      </InfoNote>
      <SecretReveal
        label={t('account.bots.token')}
        copyLabel={t('account.bots.copyToken')}
        value={credentials.token}
      />
      <SecretReveal
        label={t('account.bots.secret')}
        copyLabel={t('account.bots.copySecret')}
        value={credentials.signing_secret}
      />
      <Button onClick={onDone}>{t('account.bots.savedThem')}</Button>
    </div>
  );
}

function Deliveries({ bot }: { bot: Bot }) {
  const t = useT();
  const deliveries = useBotDeliveries(bot.id, true);
  if (deliveries.isPending) return <LoadingState label={t('account.bots.deliveriesLoading')} />;
  if (deliveries.isError) return <ErrorBanner>{t('account.bots.deliveriesFailed')}</ErrorBanner>;
  if (deliveries.data.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-400">{t('account.bots.noDeliveries')}</p>;
  return (
    <ul aria-label={t('account.bots.deliveries', { name: bot.display_name })} className="space-y-1 text-xs">
      {deliveries.data.map((d) => (
        <li key={d.id} className="flex flex-wrap gap-x-3 text-slate-700 dark:text-slate-300">
          <span
            className={
              d.status === 'delivered'
                ? 'text-emerald-700 dark:text-emerald-300'
                : 'text-red-700 dark:text-red-300'
            }
          >
            {d.status === 'delivered' ? t('account.bots.delivered') : t('account.bots.failed')}
          </span>
          <span>{t('account.bots.attempt', { attempt: d.attempt })}</span>
          <span translate="no" dir="ltr">
            {d.http_status ? `HTTP ${d.http_status}` : (d.error ?? '')}
          </span>
          <span>{t('account.bots.message', { id: d.message_id })}</span>
          <time dateTime={d.created_at}>{fullDateTime(d.created_at)}</time>
        </li>
      ))}
    </ul>
  );
}

/** A form's field errors from the server, or a toast when a refusal names no field. */
function useServerFieldErrors() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const refuse = (error: unknown, fallback: string) => {
    const fields = isApiError(error) ? fieldErrors(error.body) : {};
    if (Object.keys(fields).length > 0) setErrors(fields);
    else toast.error(serverErrorOr(error, fallback));
  };
  return { errors, clear: () => setErrors({}), refuse };
}

/** The bot's slash commands: each typed as /name in a chat it is in is POSTed, signed, to its address. */
function Commands({ bot }: { bot: Bot }) {
  const t = useT();
  const commands = useBotCommands(bot.id);
  const add = useAddBotCommand(bot.id);
  const remove = useRemoveBotCommand(bot.id);
  const [command, setCommand] = useState('');
  const [description, setDescription] = useState('');
  const [url, setUrl] = useState('');
  const { errors, clear, refuse } = useServerFieldErrors();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    clear();
    add.mutate(
      { command: command.trim(), description: description.trim(), url: url.trim() },
      {
        onSuccess: () => {
          setCommand('');
          setDescription('');
          setUrl('');
          toast.success(t('account.commands.saved'));
        },
        onError: (e) => refuse(e, t('account.commands.saveFailed')),
      },
    );
  };

  return (
    <div>
      <p className="mb-1 text-sm font-medium text-slate-900 dark:text-slate-100">
        {t('account.commands.title')}
      </p>
      {commands.isPending ? (
        <LoadingState label={t('account.commands.loading')} />
      ) : commands.isError ? (
        <ErrorBanner>{t('account.commands.loadFailed')}</ErrorBanner>
      ) : commands.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('account.commands.none')}</p>
      ) : (
        <ul aria-label={t('account.commands.list', { name: bot.display_name })} className="space-y-1">
          {commands.data.map((c) => (
            <li key={c.command} className="flex items-center gap-2 text-sm">
              <code translate="no" dir="ltr" className="font-mono text-slate-900 dark:text-slate-100">
                /{c.command}
              </code>
              <span translate="no" className="min-w-0 flex-1 truncate text-slate-600 dark:text-slate-400">
                {c.description || c.url}
              </span>
              <Button
                size="sm"
                variant="ghost"
                aria-label={t('account.commands.removeLabel', { command: c.command })}
                loading={remove.isPending && remove.variables === c.command}
                onClick={() =>
                  remove.mutate(c.command, {
                    onError: (e) => toast.error(serverErrorOr(e, t('account.commands.removeFailed'))),
                  })
                }
              >
                {t('account.commands.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={submit}
        aria-label={t('account.commands.form', { name: bot.display_name })}
        className="mt-2 grid gap-2 sm:grid-cols-2"
      >
        <TextField
          label={t('account.commands.command')}
          value={command}
          placeholder="deploy"
          required
          error={errors.command}
          onChange={(e) => setCommand(e.target.value)}
        />
        <TextField
          label={t('account.commands.description')}
          value={description}
          error={errors.description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <div className="sm:col-span-2">
          <TextField
            label={t('account.commands.url')}
            value={url}
            placeholder={t('account.commands.urlExample')}
            required
            error={errors.url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" variant="secondary" loading={add.isPending}>
            {t('account.commands.add')}
          </Button>
        </div>
      </form>
    </div>
  );
}

/** A bot's settings: its events address, who may write to it first, its credentials and its deliveries. */
function BotRow({ bot, onCredentials }: { bot: Bot; onCredentials: (c: BotCredentials) => void }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [eventsUrl, setEventsUrl] = useState(bot.events_url ?? '');
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  const update = useUpdateBot();
  const rotate = useRotateBot();
  const remove = useDeleteBot();
  const panelId = `bot-${bot.id}-settings`;

  const saveUrl = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    update.mutate(
      { id: bot.id, changes: { events_url: eventsUrl.trim() || null } },
      {
        onSuccess: () => toast.success(t('account.bots.eventsSaved')),
        onError: (e) =>
          setError(
            isApiError(e)
              ? (fieldErrors(e.body).events_url ?? serverErrorOr(e, t('account.bots.saveFailed')))
              : t('account.bots.saveFailed'),
          ),
      },
    );
  };

  return (
    <li className="py-3">
      <div className="flex items-center gap-3">
        <BotIcon aria-hidden="true" className="size-5 shrink-0 text-slate-500 dark:text-slate-400" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100">
            <Name bot={bot} />
            <span className="ms-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs font-semibold text-slate-800 dark:bg-slate-700 dark:text-slate-100">
              {t('account.bots.badge')}
            </span>
          </p>
          <p className="truncate text-xs text-slate-600 dark:text-slate-400">
            <span translate="no" dir="ltr">
              @{bot.username}
            </span>
            {' · '}
            {bot.events_url ? (
              <Slotted text={t('account.bots.eventsTo', { url: SLOT })}>
                <span translate="no" dir="ltr">
                  {bot.events_url}
                </span>
              </Slotted>
            ) : (
              t('account.bots.noEvents')
            )}
          </p>
        </div>
        <Button
          size="sm"
          variant="secondary"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
        >
          {open ? t('account.bots.close') : t('account.bots.manage')}
          <span translate="no" className="sr-only">
            {' '}
            {bot.display_name}
          </span>
        </Button>
      </div>
      {open && (
        <div id={panelId} className="mt-3 space-y-4 ps-8">
          <form onSubmit={saveUrl} className="flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1">
              <TextField
                label={t('account.bots.eventsUrl')}
                value={eventsUrl}
                placeholder={t('account.bots.eventsUrlExample')}
                error={error}
                onChange={(e) => setEventsUrl(e.target.value)}
              />
            </div>
            <Button type="submit" loading={update.isPending}>
              {t('account.save')}
            </Button>
          </form>
          <Switch
            label={t('account.bots.openToAll')}
            description={t('account.bots.openToAllDescription')}
            checked={bot.open_to_all}
            disabled={update.isPending}
            onChange={(open_to_all) => update.mutate({ id: bot.id, changes: { open_to_all } })}
          />
          <Commands bot={bot} />
          <div>
            <p className="mb-1 text-sm font-medium text-slate-900 dark:text-slate-100">
              {t('account.bots.deliveryLog')}
            </p>
            <Deliveries bot={bot} />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setConfirm('rotate')}>
              {t('account.bots.rotate')}
            </Button>
            <Button
              variant="secondary"
              className="text-red-700 dark:text-red-300"
              onClick={() => setConfirm('delete')}
            >
              {t('account.bots.delete')}
            </Button>
          </div>
        </div>
      )}
      <ConfirmDialog
        open={confirm === 'rotate'}
        title={t('account.bots.rotateTitle', { name: bot.display_name })}
        confirmLabel={t('account.bots.rotateConfirm')}
        busy={rotate.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() =>
          rotate.mutate(bot.id, {
            onSuccess: (c) => {
              setConfirm(null);
              onCredentials(c);
            },
            onError: (e) => toast.error(serverErrorOr(e, t('account.bots.rotateFailed'))),
          })
        }
      >
        {t('account.bots.rotateText')}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'delete'}
        title={t('account.bots.deleteTitle', { name: bot.display_name })}
        confirmLabel={t('account.bots.delete')}
        danger
        busy={remove.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() =>
          remove.mutate(bot.id, {
            onSuccess: () => {
              setConfirm(null);
              toast.success(t('account.bots.deleted'));
            },
            onError: (e) => toast.error(serverErrorOr(e, t('account.bots.deleteFailed'))),
          })
        }
      >
        {t('account.bots.deleteText')}
      </ConfirmDialog>
    </li>
  );
}

function NewBotForm({ onCreated }: { onCreated: (c: BotCredentials) => void }) {
  const t = useT();
  const create = useCreateBot();
  const [username, setUsername] = useState('');
  const [name, setName] = useState('');
  const [eventsUrl, setEventsUrl] = useState('');
  const { errors, clear, refuse } = useServerFieldErrors();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    clear();
    create.mutate(
      { username: username.trim(), display_name: name.trim(), events_url: eventsUrl.trim() || null },
      {
        onSuccess: (c) => {
          setUsername('');
          setName('');
          setEventsUrl('');
          onCreated(c);
        },
        onError: (e) => refuse(e, t('account.bots.createFailed')),
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label={t('account.bots.form')} className="mt-4 grid gap-3 sm:grid-cols-2">
      <TextField
        label={t('account.bots.username')}
        value={username}
        required
        error={errors.username}
        onChange={(e) => setUsername(e.target.value)}
      />
      <TextField
        label={t('account.bots.name')}
        value={name}
        required
        error={errors.display_name}
        onChange={(e) => setName(e.target.value)}
      />
      <div className="sm:col-span-2">
        <TextField
          label={t('account.bots.eventsOptional')}
          value={eventsUrl}
          placeholder={t('account.bots.eventsUrlExample')}
          error={errors.events_url}
          onChange={(e) => setEventsUrl(e.target.value)}
        />
      </div>
      <div className="sm:col-span-2">
        <Button type="submit" loading={create.isPending}>
          {t('account.bots.create')}
        </Button>
      </div>
    </form>
  );
}

/** Settings: the person's bots — create, credentials shown once, events address, delivery log, rotate, delete. */
export function BotsSection() {
  const t = useT();
  const bots = useBots();
  const [credentials, setCredentials] = useState<BotCredentials | null>(null);
  return (
    <Card>
      <CardHeader title={t('account.bots.title')} description={t('account.bots.description')} />
      {credentials && <Credentials credentials={credentials} onDone={() => setCredentials(null)} />}
      {bots.isPending ? (
        <LoadingState label={t('account.bots.loading')} />
      ) : bots.isError ? (
        <ErrorBanner>{t('account.bots.loadFailed')}</ErrorBanner>
      ) : bots.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('account.bots.none')}</p>
      ) : (
        <ul aria-label={t('account.bots.list')} className="divide-y divide-slate-100 dark:divide-slate-800">
          {bots.data.map((b) => (
            <BotRow key={b.id} bot={b} onCredentials={setCredentials} />
          ))}
        </ul>
      )}
      <NewBotForm onCreated={setCredentials} />
    </Card>
  );
}
