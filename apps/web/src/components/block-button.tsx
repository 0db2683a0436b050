import { Ban, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { serverErrorOr } from '../lib/http/api-error';
import { useIsBlocked, useSetBlocked } from '../lib/queries/safety';
import { toast } from '../lib/ui/toast';
import { Button, type ButtonSize, type ButtonVariant } from './ui/button';
import { ConfirmDialog } from './ui/confirm-dialog';

/**
 * Block or unblock a person: 'Block' asks first and says what it does; 'Unblock' acts at once. The
 * blocked person is never told.
 */
export function BlockButton({
  username,
  name,
  size = 'md',
  variant = 'secondary',
  className,
}: {
  username: string;
  name: string;
  size?: ButtonSize;
  variant?: ButtonVariant;
  className?: string;
}) {
  const blocked = useIsBlocked({ username });
  const change = useSetBlocked();
  const [confirming, setConfirming] = useState(false);

  const apply = (block: boolean) =>
    change.mutate(
      { username, blocked: block },
      {
        onSuccess: () => {
          setConfirming(false);
          toast.success(block ? `You blocked ${name}.` : `You unblocked ${name}.`);
        },
        onError: (e) => {
          setConfirming(false);
          toast.error(serverErrorOr(e, block ? 'Failed to block. Please try again.' : 'Failed to unblock.'));
        },
      },
    );

  return (
    <>
      <Button
        variant={variant}
        size={size}
        className={className}
        loading={change.isPending && !confirming}
        onClick={() => (blocked ? apply(false) : setConfirming(true))}
        aria-label={blocked ? `Unblock ${name}` : `Block ${name}`}
      >
        {blocked ? (
          <ShieldCheck aria-hidden="true" className="size-4" />
        ) : (
          <Ban aria-hidden="true" className="size-4" />
        )}
        {blocked ? 'Unblock' : 'Block'}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Block ${name}?`}
        confirmLabel="Block"
        danger
        busy={change.isPending}
        onConfirm={() => apply(true)}
        onCancel={() => setConfirming(false)}
      >
        {name} will not be able to message you, and neither of you will see the other online, typing or
        reading. In groups you share, their messages are folded away. They are not told.
      </ConfirmDialog>
    </>
  );
}
