import type { ChannelEntry } from '@parley/protocol';
import { Check } from 'lucide-react';
import type { Ref } from 'react';
import { Link, useNavigate } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { Button } from '../../../components/ui/button';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { useJoinChannel } from '../../../lib/queries/channels';
import { toast } from '../../../lib/ui/toast';

export const channelPath = (chatId: string) => `/groups/${encodeURIComponent(chatId)}`;

/**
 * One channel of the directory: its link (picture, name, members, description) opens the room, which previews
 * it for someone who has not joined; beside it 'Joined', or a Join button that joins and opens it.
 */
export function ChannelRow({ channel, ref }: { channel: ChannelEntry; ref?: Ref<HTMLAnchorElement> }) {
  const join = useJoinChannel();
  const navigate = useNavigate();
  const t = useT();
  const path = channelPath(channel.chat_id);
  const descriptionId = `channel-${channel.chat_id}-description`;
  return (
    <li className="flex items-center gap-3 px-4 py-3">
      <Link
        ref={ref}
        to={path}
        aria-describedby={channel.description ? descriptionId : undefined}
        className="-m-1 flex min-w-0 flex-1 items-start gap-3 rounded-lg p-1 hover:bg-slate-50 focus-visible:outline-offset-0 dark:hover:bg-slate-800/60"
      >
        <Avatar src={channel.avatar} name={channel.group_name} group size="lg" lazy />
        <span className="min-w-0 flex-1">
          <span translate="no" className="block truncate font-medium text-slate-900 dark:text-slate-100">
            {channel.group_name}
          </span>
          <span className="block text-xs text-slate-600 dark:text-slate-400" data-testid="channel-members">
            {t('groups.members.count', { count: channel.member_count })}
          </span>
          {channel.description && (
            <span
              id={descriptionId}
              translate="no"
              className="mt-1 line-clamp-2 text-sm break-words text-slate-700 dark:text-slate-300"
            >
              {channel.description}
            </span>
          )}
        </span>
      </Link>
      {channel.is_member ? (
        <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-medium text-emerald-800 dark:bg-emerald-400/15 dark:text-emerald-200">
          <Check aria-hidden="true" className="size-3.5" />
          {t('groups.channels.joined')}
        </span>
      ) : (
        <Button
          size="sm"
          className="shrink-0"
          loading={join.isPending}
          aria-label={t('groups.channels.joinName', { name: channel.group_name })}
          onClick={() =>
            join.mutate(channel.chat_id, {
              onSuccess: () => void navigate(path),
              onError: (error) => toast.error(serverErrorOr(error, t('room.join.failed'))),
            })
          }
        >
          {t('groups.channels.join')}
        </Button>
      )}
    </li>
  );
}
