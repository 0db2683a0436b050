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

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The token and signing secret of a bot just made or rotated: shown this once. */
function Credentials({ credentials, onDone }: { credentials: BotCredentials; onDone: () => void }) {
  return (
    <div className="space-y-3 rounded-lg border border-amber-300 p-3 dark:border-amber-700" role="status">
      <InfoNote>
        Copy the token and signing secret of @{credentials.bot.username} now. They will not be shown again.
      </InfoNote>
      <SecretReveal label="Bot token" value={credentials.token} />
      <SecretReveal label="Signing secret" value={credentials.signing_secret} />
      <Button onClick={onDone}>I have saved them</Button>
    </div>
  );
}

function Deliveries({ bot }: { bot: Bot }) {
  const deliveries = useBotDeliveries(bot.id, true);
  if (deliveries.isPending) return <LoadingState label="Loading deliveries..." />;
  if (deliveries.isError) return <ErrorBanner>Failed to load deliveries</ErrorBanner>;
  if (deliveries.data.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-400">No events sent yet.</p>;
  return (
    <ul aria-label={`Deliveries to ${bot.display_name}`} className="space-y-1 text-xs">
      {deliveries.data.map((d) => (
        <li key={d.id} className="flex flex-wrap gap-x-3 text-slate-700 dark:text-slate-300">
          <span
            className={
              d.status === 'delivered'
                ? 'text-emerald-700 dark:text-emerald-300'
                : 'text-red-700 dark:text-red-300'
            }
          >
            {d.status === 'delivered' ? 'Delivered' : 'Failed'}
          </span>
          <span>Attempt {d.attempt}</span>
          <span>{d.http_status ? `HTTP ${d.http_status}` : (d.error ?? '')}</span>
          <span>Message {d.message_id}</span>
          <span>{when(d.created_at)}</span>
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
          toast.success('Command saved');
        },
        onError: (e) => refuse(e, 'Failed to save the command'),
      },
    );
  };

  return (
    <div>
      <p className="mb-1 text-sm font-medium text-slate-900 dark:text-slate-100">Slash commands</p>
      {commands.isPending ? (
        <LoadingState label="Loading commands..." />
      ) : commands.isError ? (
        <ErrorBanner>Failed to load commands</ErrorBanner>
      ) : commands.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No commands yet.</p>
      ) : (
        <ul aria-label={`Commands of ${bot.display_name}`} className="space-y-1">
          {commands.data.map((c) => (
            <li key={c.command} className="flex items-center gap-2 text-sm">
              <code className="font-mono text-slate-900 dark:text-slate-100">/{c.command}</code>
              <span className="min-w-0 flex-1 truncate text-slate-600 dark:text-slate-400">
                {c.description || c.url}
              </span>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove /${c.command}`}
                loading={remove.isPending && remove.variables === c.command}
                onClick={() =>
                  remove.mutate(c.command, {
                    onError: (e) => toast.error(serverErrorOr(e, 'Failed to remove the command')),
                  })
                }
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={submit}
        aria-label={`New command for ${bot.display_name}`}
        className="mt-2 grid gap-2 sm:grid-cols-2"
      >
        <TextField
          label="Command"
          value={command}
          placeholder="deploy"
          required
          error={errors.command}
          onChange={(e) => setCommand(e.target.value)}
        />
        <TextField
          label="Description"
          value={description}
          error={errors.description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <div className="sm:col-span-2">
          <TextField
            label="Command address (https)"
            value={url}
            placeholder="https://bot.example.com/commands"
            required
            error={errors.url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" variant="secondary" loading={add.isPending}>
            Add command
          </Button>
        </div>
      </form>
    </div>
  );
}

/** A bot's settings: its events address, who may write to it first, its credentials and its deliveries. */
function BotRow({ bot, onCredentials }: { bot: Bot; onCredentials: (c: BotCredentials) => void }) {
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
        onSuccess: () => toast.success('Events address saved'),
        onError: (e) =>
          setError(
            isApiError(e)
              ? (fieldErrors(e.body).events_url ?? serverErrorOr(e, 'Failed to save'))
              : 'Failed to save',
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
            {bot.display_name}
            <span className="ms-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs font-semibold text-slate-800 dark:bg-slate-700 dark:text-slate-100">
              Bot
            </span>
          </p>
          <p className="truncate text-xs text-slate-600 dark:text-slate-400">
            @{bot.username} · {bot.events_url ? `Events to ${bot.events_url}` : 'No events address'}
          </p>
        </div>
        <Button
          size="sm"
          variant="secondary"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Close' : 'Manage'}
          <span className="sr-only"> {bot.display_name}</span>
        </Button>
      </div>
      {open && (
        <div id={panelId} className="mt-3 space-y-4 ps-8">
          <form onSubmit={saveUrl} className="flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1">
              <TextField
                label="Events address (https)"
                value={eventsUrl}
                placeholder="https://bot.example.com/parley"
                error={error}
                onChange={(e) => setEventsUrl(e.target.value)}
              />
            </div>
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </form>
          <Switch
            label="Anyone may message it"
            description="Off: only you, and people it wrote to first, can start a private chat with it."
            checked={bot.open_to_all}
            disabled={update.isPending}
            onChange={(open_to_all) => update.mutate({ id: bot.id, changes: { open_to_all } })}
          />
          <Commands bot={bot} />
          <div>
            <p className="mb-1 text-sm font-medium text-slate-900 dark:text-slate-100">Delivery log</p>
            <Deliveries bot={bot} />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setConfirm('rotate')}>
              New token and secret
            </Button>
            <Button
              variant="secondary"
              className="text-red-700 dark:text-red-300"
              onClick={() => setConfirm('delete')}
            >
              Delete bot
            </Button>
          </div>
        </div>
      )}
      <ConfirmDialog
        open={confirm === 'rotate'}
        title={`New credentials for ${bot.display_name}?`}
        confirmLabel="Make new ones"
        busy={rotate.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() =>
          rotate.mutate(bot.id, {
            onSuccess: (c) => {
              setConfirm(null);
              onCredentials(c);
            },
            onError: (e) => toast.error(serverErrorOr(e, 'Failed to make new credentials')),
          })
        }
      >
        The current token and signing secret stop working at once.
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'delete'}
        title={`Delete ${bot.display_name}?`}
        confirmLabel="Delete bot"
        danger
        busy={remove.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() =>
          remove.mutate(bot.id, {
            onSuccess: () => {
              setConfirm(null);
              toast.success('Bot deleted');
            },
            onError: (e) => toast.error(serverErrorOr(e, 'Failed to delete the bot')),
          })
        }
      >
        It leaves every chat and its token stops working. Its messages stay, from a deleted account.
      </ConfirmDialog>
    </li>
  );
}

function NewBotForm({ onCreated }: { onCreated: (c: BotCredentials) => void }) {
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
        onError: (e) => refuse(e, 'Failed to create the bot'),
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label="New bot" className="mt-4 grid gap-3 sm:grid-cols-2">
      <TextField
        label="Username"
        value={username}
        required
        error={errors.username}
        onChange={(e) => setUsername(e.target.value)}
      />
      <TextField
        label="Name"
        value={name}
        required
        error={errors.display_name}
        onChange={(e) => setName(e.target.value)}
      />
      <div className="sm:col-span-2">
        <TextField
          label="Events address (optional, https)"
          value={eventsUrl}
          placeholder="https://bot.example.com/parley"
          error={errors.events_url}
          onChange={(e) => setEventsUrl(e.target.value)}
        />
      </div>
      <div className="sm:col-span-2">
        <Button type="submit" loading={create.isPending}>
          Create bot
        </Button>
      </div>
    </form>
  );
}

/** Settings: the person's bots — create, credentials shown once, events address, delivery log, rotate, delete. */
export function BotsSection() {
  const bots = useBots();
  const [credentials, setCredentials] = useState<BotCredentials | null>(null);
  return (
    <Card>
      <CardHeader
        title="Bots"
        description="Bots post with their own token and receive the messages of the chats they are added to, signed."
      />
      {credentials && <Credentials credentials={credentials} onDone={() => setCredentials(null)} />}
      {bots.isPending ? (
        <LoadingState label="Loading bots..." />
      ) : bots.isError ? (
        <ErrorBanner>Failed to load bots</ErrorBanner>
      ) : bots.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">You have no bots yet.</p>
      ) : (
        <ul aria-label="Your bots" className="divide-y divide-slate-100 dark:divide-slate-800">
          {bots.data.map((b) => (
            <BotRow key={b.id} bot={b} onCredentials={setCredentials} />
          ))}
        </ul>
      )}
      <NewBotForm onCreated={setCredentials} />
    </Card>
  );
}
