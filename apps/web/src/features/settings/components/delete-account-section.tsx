import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useSignOut } from '../../../lib/session/use-sign-out';
import { toast } from '../../../lib/ui/toast';
import { useDeleteAccount } from '../api/delete-account';

export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  const remove = useDeleteAccount();
  const signOut = useSignOut();

  const onConfirm = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        setOpen(false);
        void signOut('/');
      },
      onError: () => toast.error('Failed to delete account. Please try again.'),
    });

  return (
    <Card className="border-red-200 dark:border-red-900">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-base font-semibold text-slate-900 dark:text-slate-100">Delete Account</h2>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
            Permanently remove your account and everything in it.
          </p>
        </div>
        <Button variant="danger" onClick={() => setOpen(true)} className="shrink-0">
          Delete Account
        </Button>
      </div>
      <ConfirmDialog
        open={open}
        title="Delete Account?"
        confirmLabel="Delete Account"
        danger
        busy={remove.isPending}
        onConfirm={onConfirm}
        onCancel={() => setOpen(false)}
      >
        This action cannot be undone. All your data, messages, and account information will be permanently
        deleted.
      </ConfirmDialog>
    </Card>
  );
}
