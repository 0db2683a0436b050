import { Ban, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { serverErrorOr } from '../lib/http/api-error';
import { useT } from '../lib/i18n/i18n';
import { SLOT, Slotted } from '../lib/i18n/slotted';
import { useIsBlocked, useSetBlocked } from '../lib/queries/safety';
import { toast } from '../lib/ui/toast';
import './safety-texts';
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
  const t = useT();

  const apply = (block: boolean) =>
    change.mutate(
      { username, blocked: block },
      {
        onSuccess: () => {
          setConfirming(false);
          toast.success(t(block ? 'groups.block.blocked' : 'settings.blocked.unblocked', { name }));
        },
        onError: (e) => {
          setConfirming(false);
          toast.error(serverErrorOr(e, t(block ? 'groups.block.failed' : 'groups.block.unblockFailed')));
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
        aria-label={t(blocked ? 'settings.blocked.unblockName' : 'groups.block.blockName', { name })}
      >
        {blocked ? (
          <ShieldCheck aria-hidden="true" className="size-4" />
        ) : (
          <Ban aria-hidden="true" className="size-4" />
        )}
        {blocked ? t('settings.blocked.unblock') : t('groups.chat.block')}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t('groups.block.confirm', { name })}
        confirmLabel={t('groups.chat.block')}
        danger
        busy={change.isPending}
        onConfirm={() => apply(true)}
        onCancel={() => setConfirming(false)}
      >
        <Slotted text={t('groups.block.body', { name: SLOT })}>
          <span translate="no">{name}</span>
        </Slotted>
      </ConfirmDialog>
    </>
  );
}
