import type { ChatDetail, GroupInvite } from '@parley/protocol';
import { Check, Copy, Link2, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { inputClasses, TextField } from '../../../components/ui/text-field';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { focusFirstInvalid } from '../../../lib/ui/focus-first-invalid';
import { toast } from '../../../lib/ui/toast';
import { useCreateInviteLink } from '../api/create-invite-link';
import { useInviteLinks } from '../api/get-invite-links';
import { useRevokeInviteLink } from '../api/revoke-invite-link';
import {
  DEFAULT_EXPIRY_HOURS,
  EXPIRY_CHOICES,
  inviteExpiryText,
  inviteUsesText,
  maxUsesProblem,
  parseMaxUses,
} from '../lib/invite-texts';

/** How long 'Copied' stays beside a link once copied. */
const COPIED_MS = 2500;

/**
 * 'Invite links': a new link with its expiry and most uses, the links still usable with their uses and time
 * left, each copied in one click; the admins also revoke them (after a confirmation).
 */
export function InviteLinksCard({ detail, canRevoke }: { detail: ChatDetail; canRevoke: boolean }) {
  const chatId = detail.chat_id;
  const titleId = useId();
  const links = useInviteLinks(chatId);
  const create = useCreateInviteLink(chatId);
  const revoke = useRevokeInviteLink(chatId);
  const [expiry, setExpiry] = useState<string>(DEFAULT_EXPIRY_HOURS);
  const [maxUses, setMaxUses] = useState('');
  const [usesError, setUsesError] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<GroupInvite | null>(null);
  /** The link just made: its Copy button takes the focus. */
  const [fresh, setFresh] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const t = useT();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const uses = parseMaxUses(maxUses);
    if (uses === undefined) {
      setUsesError(maxUsesProblem());
      focusFirstInvalid(formRef.current);
      return;
    }
    create.mutate(
      { ...(expiry ? { expires_in_hours: Number(expiry) } : {}), ...(uses ? { max_uses: uses } : {}) },
      {
        onSuccess: (link) => {
          setMaxUses('');
          setFresh(link.code);
          toast.success(t('groups.invites.created'));
        },
        onError: (e) => toast.error(serverErrorOr(e, t('groups.invites.createFailed'))),
      },
    );
  };

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.code, {
      onSuccess: () => {
        setRevoking(null);
        toast.success(t('groups.invites.revoked'));
      },
      onError: (e) => {
        setRevoking(null);
        toast.error(serverErrorOr(e, t('groups.invites.revokeFailed')));
      },
    });
  };

  const list = links.data ?? [];
  return (
    <Card>
      <CardHeader
        id={titleId}
        title={t('groups.invites.title')}
        description={
          detail.visibility === 'public' ? t('groups.invites.publicHint') : t('groups.invites.privateHint')
        }
      />
      <form
        ref={formRef}
        onSubmit={submit}
        noValidate
        aria-label={t('groups.invites.new')}
        className="mt-4 space-y-3"
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <ExpirySelect value={expiry} onChange={setExpiry} disabled={create.isPending} />
          <TextField
            label={t('groups.invites.maxUses')}
            inputMode="numeric"
            autoComplete="off"
            placeholder={t('groups.invites.noLimit')}
            value={maxUses}
            error={usesError}
            disabled={create.isPending}
            onChange={(event) => {
              setMaxUses(event.target.value);
              setUsesError(null);
            }}
          />
        </div>
        <div className="flex justify-end">
          <Button type="submit" loading={create.isPending} className="w-full sm:w-auto">
            {!create.isPending && <Link2 aria-hidden="true" className="size-4" />}
            {t('groups.invites.create')}
          </Button>
        </div>
      </form>

      <div className="mt-5">
        {links.isPending ? (
          <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
            <Spinner size="sm" /> {t('groups.invites.loading')}
          </p>
        ) : links.isError ? (
          <ErrorBanner>
            {t('groups.invites.loadFailed')}{' '}
            <button type="button" className="font-medium underline" onClick={() => void links.refetch()}>
              {t('settings.tryAgain')}
            </button>
          </ErrorBanner>
        ) : list.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">{t('groups.invites.none')}</p>
        ) : (
          <ul
            aria-labelledby={titleId}
            className="divide-y divide-slate-100 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
            data-testid="invite-links"
          >
            {list.map((link) => (
              <InviteLinkRow
                key={link.code}
                link={link}
                focus={fresh === link.code}
                onRevoke={canRevoke ? () => setRevoking(link) : undefined}
              />
            ))}
          </ul>
        )}
      </div>

      <ConfirmDialog
        open={revoking !== null}
        title={t('groups.invites.revokeConfirm')}
        confirmLabel={t('groups.invites.revokeLink')}
        danger
        busy={revoke.isPending}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(null)}
      >
        {t('groups.invites.revokeBody')}
      </ConfirmDialog>
    </Card>
  );
}

function ExpirySelect({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (hours: string) => void;
  disabled: boolean;
}) {
  const id = useId();
  const t = useT();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {t('groups.invites.expiresAfter')}
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        className={inputClasses(false)}
      >
        {EXPIRY_CHOICES.map((choice) => (
          <option key={choice.hours} value={choice.hours}>
            {choice.label()}
          </option>
        ))}
      </select>
    </div>
  );
}

function InviteLinkRow({
  link,
  focus,
  onRevoke,
}: {
  link: GroupInvite;
  focus: boolean;
  onRevoke?: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const rowRef = useRef<HTMLLIElement>(null);
  const metaId = useId();
  const urlRef = useRef<HTMLParagraphElement>(null);
  const t = useT();

  useEffect(() => {
    if (focus) rowRef.current?.querySelector<HTMLButtonElement>('[data-copy]')?.focus();
  }, [focus]);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  // Without the Clipboard API (or its permission) the link is selected, for the person to copy themselves.
  const copy = () => {
    const written = navigator.clipboard?.writeText(link.url) ?? Promise.reject(new Error('no clipboard'));
    written.then(
      () => setCopied(true),
      () => {
        if (urlRef.current) window.getSelection()?.selectAllChildren(urlRef.current);
        toast.error(t('groups.invites.copyFailed'));
      },
    );
  };

  return (
    <li ref={rowRef} className="flex flex-col gap-2 px-3 py-3 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p
          ref={urlRef}
          className="truncate font-mono text-xs text-slate-900 select-all dark:text-slate-100"
          title={link.url}
          data-testid="invite-url"
          dir="ltr"
          translate="no"
        >
          {link.url}
        </p>
        <p id={metaId} className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
          {t('groups.invites.meta', {
            expiry: inviteExpiryText(link.expires_at),
            uses: inviteUsesText(link),
          })}
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <span role="status" className="text-xs font-medium text-green-700 dark:text-green-300">
          {copied && (
            <span className="inline-flex items-center gap-1">
              <Check aria-hidden="true" className="size-3.5" />
              {t('groups.invites.copied')}
            </span>
          )}
        </span>
        <Button data-copy size="sm" variant="secondary" aria-describedby={metaId} onClick={copy}>
          <Copy aria-hidden="true" className="size-4" />
          {t('groups.invites.copy')}
        </Button>
        {onRevoke && (
          <Button size="sm" variant="ghost" aria-describedby={metaId} onClick={onRevoke}>
            <Trash2 aria-hidden="true" className="size-4" />
            {t('groups.invites.revoke')}
          </Button>
        )}
      </div>
    </li>
  );
}
