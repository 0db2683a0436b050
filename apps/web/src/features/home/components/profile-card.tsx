import { displayNameOf, type ProfileListItem } from '@parley/protocol';
import { BadgeCheck } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { useT } from '../../../lib/i18n/i18n';

/** One person on the home grid; it opens /profile for oneself and /user/{username} for anyone else. */
export function ProfileCard({ profile, own }: { profile: ProfileListItem; own: boolean }) {
  const t = useT();
  const name = displayNameOf(profile);
  return (
    <Link
      to={own ? '/profile' : `/user/${encodeURIComponent(profile.username)}`}
      className="group flex h-full flex-col items-center gap-3 rounded-2xl border border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 p-4 text-center shadow-sm transition hover:-translate-y-0.5 hover:border-brand-200 dark:hover:border-brand-500/40 hover:shadow-md sm:flex-row sm:p-5 sm:text-start"
    >
      <span className="relative shrink-0">
        <Avatar src={profile.avatar} name={name} size="xl" />
        {profile.is_online && (
          <span
            role="img"
            aria-label={t('home.online')}
            className="absolute end-0 bottom-0 size-3.5 rounded-full bg-emerald-500 ring-2 ring-white dark:ring-slate-900"
          />
        )}
      </span>
      <span className="flex w-full min-w-0 flex-1 flex-col">
        <span className="flex min-w-0 items-center justify-center gap-1 sm:justify-start">
          <span
            translate="no"
            className="line-clamp-2 font-semibold wrap-anywhere text-slate-900 dark:text-slate-100 group-hover:text-brand-700 dark:group-hover:text-brand-200 sm:line-clamp-1"
          >
            {name}
          </span>
          {profile.is_blue_verified && (
            <BadgeCheck role="img" aria-label={t('home.verified')} className="size-4 shrink-0 text-sky-500" />
          )}
        </span>
        <span className="truncate text-sm text-slate-500 dark:text-slate-400">
          <span dir="ltr" translate="no" className="inline-block max-w-full truncate align-bottom">
            @{profile.username}
          </span>
        </span>
        {own && (
          <span className="mt-1.5 self-center rounded-full bg-brand-50 dark:bg-brand-500/15 px-2 py-0.5 text-xs font-medium text-brand-700 dark:text-brand-200 sm:self-start">
            {t('room.msg.you')}
          </span>
        )}
      </span>
    </Link>
  );
}
