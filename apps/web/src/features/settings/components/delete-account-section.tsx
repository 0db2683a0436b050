import { type FormEvent, useId, useState } from 'react';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ModalDialog } from '../../../components/ui/modal-dialog';
import { fieldErrors, isApiError, serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { useSignOut } from '../../../lib/session/use-sign-out';
import { toast } from '../../../lib/ui/toast';
import { useDeleteAccount } from '../api/delete-account';
import { useTwoStepStatus } from '../api/two-step-status';
import '../lib/account-texts';
import { type OwnerProof, OwnerProofFields } from './owner-proof-fields';

/**
 * SPEC's 'Delete Account?' confirmation, which also asks for the password (and, while two-step sign-in is on, a
 * code from the app or a recovery code), as turning two-step sign-in off does: one click on a session left open
 * no longer ends the account.
 */
function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const titleId = useId();
  const bodyId = useId();
  const remove = useDeleteAccount();
  const twoStep = useTwoStepStatus();
  const signOut = useSignOut();
  const [proof, setProof] = useState<OwnerProof>({ password: '', code: '' });
  const refusal = isApiError(remove.error) && remove.error.status === 400 ? remove.error : null;
  const errors = refusal ? fieldErrors(refusal.body) : {};
  // The server asks for a code when two-step sign-in is on, even if its status had not loaded here.
  const needsCode = twoStep.data?.enabled === true || Boolean(errors.code);
  const general = refusal && !errors.password && !errors.code;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(
      { password: proof.password, ...(needsCode ? { code: proof.code } : {}) },
      {
        onSuccess: () => {
          onClose();
          void signOut('/');
        },
        onError: (error) => {
          if (!isApiError(error) || error.status !== 400) toast.error(t('account.delete.failed'));
        },
      },
    );
  };

  return (
    <ModalDialog
      labelledBy={titleId}
      describedBy={bodyId}
      onClose={() => !remove.isPending && onClose()}
      className="w-[calc(100%-2rem)] max-w-md"
    >
      <form onSubmit={onSubmit} className="space-y-4 p-6">
        <h2 id={titleId} className="text-lg font-semibold">
          {t('account.delete.confirmTitle')}
        </h2>
        <p id={bodyId} className="text-sm text-slate-600 dark:text-slate-400">
          {t('account.delete.confirmText')}
        </p>
        {general && <ErrorBanner>{serverErrorOr(refusal, t('account.delete.failed'))}</ErrorBanner>}
        <OwnerProofFields value={proof} onChange={setProof} withCode={needsCode} errors={errors} autoFocus />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={remove.isPending}>
            {t('account.cancel')}
          </Button>
          <Button
            type="submit"
            variant="danger"
            disabled={!proof.password || (needsCode && !proof.code.trim())}
            loading={remove.isPending}
          >
            {t('account.delete.title')}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}

export function DeleteAccountSection() {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <Card className="border-red-200 dark:border-red-900">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-base font-semibold text-slate-900 dark:text-slate-100">
            {t('account.delete.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('account.delete.description')}</p>
        </div>
        <Button variant="danger" onClick={() => setOpen(true)} className="shrink-0">
          {t('account.delete.title')}
        </Button>
      </div>
      {open && <DeleteAccountDialog onClose={() => setOpen(false)} />}
    </Card>
  );
}
