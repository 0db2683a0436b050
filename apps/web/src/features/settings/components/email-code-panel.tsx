import { type AuthUser, CODE_LENGTH } from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { CodeInput } from '../../../components/code-input';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { settingsQueryKey } from '../../../lib/queries/settings-query';
import { authStore } from '../../../lib/session/auth-store';
import { toast } from '../../../lib/ui/toast';
import { useVerifyEmailChange } from '../api/verify-email-change';

/** The code panel after an email change: the code went to the new address; a correct one applies the change. */
export function EmailCodePanel({
  email,
  onDone,
  onCancel,
}: {
  email: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  const queryClient = useQueryClient();
  const verify = useVerifyEmailChange();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) return;
    setError(null);
    verify.mutate(code, {
      onSuccess: (answer) => {
        const { user, updateUser } = authStore.getState();
        if (user) updateUser({ ...user, ...answer?.user, email: answer?.user?.email ?? email } as AuthUser);
        toast.success(answer?.message ? localText(answer.message) : t('account.email.updated'));
        void queryClient.invalidateQueries({ queryKey: settingsQueryKey });
        void queryClient.invalidateQueries({ queryKey: ['profile', 'me'] });
        onDone();
      },
      onError: (err) => setError(serverErrorOr(err, t('account.email.invalidCode'))),
    });
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label={t('account.email.codeForm')}
      className="mt-3 space-y-3 rounded-xl border border-brand-100 dark:border-brand-500/30 bg-brand-50/60 p-4"
    >
      <p className="text-sm text-slate-700 dark:text-slate-300">
        <Slotted text={t('account.email.codeSent', { email: SLOT })}>
          <strong
            translate="no"
            dir="ltr"
            className="font-semibold wrap-anywhere text-slate-900 dark:text-slate-100"
          >
            {email}
          </strong>
        </Slotted>
      </p>
      {error && <ErrorBanner>{error}</ErrorBanner>}
      <CodeInput value={code} onChange={setCode} autoFocus />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={code.length !== CODE_LENGTH} loading={verify.isPending}>
          {t('account.email.verify')}
        </Button>
        <Button size="sm" variant="secondary" onClick={onCancel} disabled={verify.isPending}>
          {t('account.cancel')}
        </Button>
      </div>
    </form>
  );
}
