import { EMAIL_MAX_LENGTH, looksLikeEmail, MSG, type SettingsResponse } from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { BadgeCheck, CircleAlert } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { InfoNote } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { settingsQueryKey } from '../../../lib/queries/settings-query';
import { toast } from '../../../lib/ui/toast';
import { useUpdateEmail } from '../api/update-email';
import '../lib/account-texts';
import { EmailCodePanel } from './email-code-panel';

function VerifiedBadge({ verified }: { verified: boolean }) {
  const t = useT();
  return verified ? (
    <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 dark:bg-emerald-950/40 px-2 py-0.5 text-xs font-medium text-emerald-700 dark:text-emerald-300">
      <BadgeCheck aria-hidden="true" className="size-3.5" />
      {t('account.email.verified')}
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 rounded-full bg-amber-50 dark:bg-amber-950/40 px-2 py-0.5 text-xs font-medium text-amber-700 dark:text-amber-300">
      <CircleAlert aria-hidden="true" className="size-3.5" />
      {t('account.email.notVerified')}
    </span>
  );
}

/** The email row: Edit, Save, Cancel; a change waits for the code sent to the new address. */
export function EmailSetting({ settings }: { settings: SettingsResponse }) {
  const t = useT();
  const { user } = settings;
  const queryClient = useQueryClient();
  const update = useUpdateEmail();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(user.email);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const [noteDismissed, setNoteDismissed] = useState(false);
  const serverPending = noteDismissed ? null : settings.pending_email;

  const startEditing = () => {
    setDraft(user.email);
    setFieldError(null);
    setEditing(true);
  };

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    const email = draft.trim();
    // Unchanged: nothing to send.
    if (email.toLowerCase() === user.email.toLowerCase()) return setEditing(false);
    if (!email) return setFieldError(localText(MSG.emailRequired));
    if (!looksLikeEmail(email)) return setFieldError(localText(MSG.emailInvalid));
    update.mutate(email, {
      onSuccess: (answer) => {
        setEditing(false);
        if (answer?.requires_verification) {
          setPendingEmail(answer.pending_email ?? email);
          setNoteDismissed(false);
          if (answer.message) toast.info(localText(answer.message));
        } else {
          toast.success(t('account.email.updated'));
        }
        void queryClient.invalidateQueries({ queryKey: settingsQueryKey });
      },
      onError: (err) => setFieldError(serverErrorOr(err, t('account.email.updateFailed'))),
    });
  };

  const closePanel = () => {
    setPendingEmail(null);
    setNoteDismissed(true);
  };

  return (
    <Card>
      <CardHeader
        title={t('account.email.title')}
        description={
          <Slotted text={t('account.email.signedInAs', { username: SLOT })}>
            <span translate="no" dir="ltr" className="inline-block max-w-full truncate align-bottom">
              @{user.username}
            </span>
          </Slotted>
        }
      />
      {editing ? (
        <form noValidate onSubmit={onSave} className="space-y-3 py-2">
          <TextField
            label={t('account.email.label')}
            type="email"
            autoComplete="email"
            autoFocus
            maxLength={EMAIL_MAX_LENGTH}
            value={draft}
            error={fieldError}
            onChange={(e) => {
              setDraft(e.target.value);
              setFieldError(null);
            }}
          />
          <div className="flex gap-2">
            <Button type="submit" size="sm" loading={update.isPending}>
              {t('account.save')}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setEditing(false)}
              disabled={update.isPending}
            >
              {t('account.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3 py-2">
          <div className="min-w-0">
            <p className="text-sm font-medium text-slate-700 dark:text-slate-300">
              {t('account.email.label')}
            </p>
            <div className="mt-0.5 flex flex-wrap items-center gap-2">
              <span
                translate="no"
                dir="ltr"
                className="text-sm wrap-anywhere text-slate-900 dark:text-slate-100"
                data-testid="current-email"
              >
                {user.email}
              </span>
              <VerifiedBadge verified={user.is_activated} />
            </div>
          </div>
          <Button
            size="sm"
            variant="secondary"
            onClick={startEditing}
            aria-label={t('account.email.editLabel')}
          >
            {t('account.email.edit')}
          </Button>
        </div>
      )}

      {!pendingEmail && serverPending && (
        <InfoNote className="mt-3">
          <p>
            <Slotted text={t('account.email.awaiting', { email: SLOT })}>
              <strong translate="no" dir="ltr" className="font-semibold wrap-anywhere">
                {serverPending}
              </strong>
            </Slotted>
          </p>
          <button
            type="button"
            onClick={() => setPendingEmail(serverPending)}
            className="mt-1 rounded font-medium underline underline-offset-2"
          >
            {t('account.email.enterCode')}
          </button>
        </InfoNote>
      )}
      {pendingEmail && <EmailCodePanel email={pendingEmail} onDone={closePanel} onCancel={closePanel} />}
    </Card>
  );
}
