import { Eye, Megaphone } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { useJoinChannel } from '../../../lib/queries/channels';
import { toast } from '../../../lib/ui/toast';
import { COMPOSER_STAND_IN } from '../lib/composer-slot';

// What stands in the composer's place when the reader may not post: someone previewing a public group they have
// not joined gets the 'Join channel' bar; a member of an announcement channel gets a line saying only admins post.

const BAR =
  'flex items-center gap-3 border-t border-slate-200 bg-white px-3 py-3 text-sm text-slate-700 sm:px-4 dark:border-slate-800 dark:bg-slate-950 dark:text-slate-300';

const NAME_MARK = '\u2063';

/** A public group previewed from outside: its history and live messages, and a Join button instead of a composer. */
export function JoinBar({ chatId, name }: { chatId: string; name: string }) {
  const t = useT();
  const join = useJoinChannel();
  // The channel's name in bold wherever the translation puts it.
  const [before = '', after = ''] = t('room.join.previewing', { name: NAME_MARK }).split(NAME_MARK);
  const textId = useId();
  return (
    <section
      aria-label={t('room.join.label')}
      className={BAR}
      data-testid="join-bar"
      {...{ [COMPOSER_STAND_IN]: '' }}
    >
      <Eye aria-hidden="true" className="size-5 shrink-0 text-slate-500 dark:text-slate-400" />
      <p id={textId} className="min-w-0 flex-1">
        {before}
        <span translate="no" className="font-medium text-slate-900 dark:text-slate-100">
          {name}
        </span>
        {after}
      </p>
      <Button
        className="shrink-0"
        aria-describedby={textId}
        loading={join.isPending}
        onClick={() =>
          join.mutate(chatId, {
            onError: (error) => toast.error(serverErrorOr(error, t('room.join.failed'))),
          })
        }
      >
        {t('room.join.label')}
      </Button>
    </section>
  );
}

/** An announcement channel, for a member who is not an admin: reading and reacting only. */
export function AdminsOnlyNote() {
  const t = useT();
  return (
    <p
      tabIndex={-1}
      className={`${BAR} justify-center focus-visible:outline-none`}
      data-testid="admins-only"
      {...{ [COMPOSER_STAND_IN]: '' }}
    >
      <Megaphone aria-hidden="true" className="size-4 shrink-0 text-slate-500 dark:text-slate-400" />
      {t('room.join.adminsOnly')}
    </p>
  );
}
