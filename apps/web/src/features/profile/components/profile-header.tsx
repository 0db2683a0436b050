import type { ReactNode } from 'react';
import { Avatar } from '../../../components/avatar';
import { SoftwareBadge } from '../../../components/software-badge';
import { VerifiedIcon } from './verified-badge';

/**
 * The top of a profile card: the banner, the picture, the name over its @username, and the actions (Message, or
 * Edit Profile and Refresh). A long name wraps and stops at three lines (the whole of it is the heading's text and
 * its tooltip); a long username ends in an ellipsis. Beside the name on a wide screen, under it on a phone, the
 * actions never cover it, and nothing leaves the card.
 */
export function ProfileHeader({
  name,
  username,
  avatar,
  avatarAlt,
  heading: Heading,
  headingId,
  verified = false,
  bot = false,
  actions,
  children,
}: {
  name: string;
  username: string;
  avatar: string | null;
  avatarAlt: string;
  heading: 'h1' | 'h2';
  headingId: string;
  /** The verified mark beside the name (the own profile shows a pill below instead). */
  verified?: boolean;
  /** A bot's profile: a 'Bot' badge beside the name. */
  bot?: boolean;
  actions: ReactNode;
  /** The rest of the card's top part, below the header. */
  children: ReactNode;
}) {
  return (
    <>
      <div aria-hidden="true" className="h-24 bg-linear-to-r from-brand-100 via-sky-50 to-emerald-50" />
      <div className="px-5 pb-6 sm:px-8">
        <div className="-mt-12 flex flex-col items-center gap-4 text-center sm:-mt-14 sm:flex-row sm:items-end sm:text-start">
          <Avatar
            src={avatar}
            name={name}
            size="3xl"
            alt={avatarAlt}
            className="shrink-0 ring-4 ring-white dark:ring-slate-900"
          />
          <div className="w-full min-w-0 sm:w-auto sm:flex-1 sm:pb-1">
            <Heading
              id={headingId}
              className="flex items-start justify-center gap-2 text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100 sm:justify-start"
            >
              <span title={name} translate="no" className="line-clamp-3 min-w-0 wrap-anywhere">
                {name}
              </span>
              {verified && <VerifiedIcon className="mt-1 size-6" />}
              {bot && (
                <span className="mt-2">
                  <SoftwareBadge label="Bot" />
                </span>
              )}
            </Heading>
            <p title={`@${username}`} className="truncate text-sm text-slate-500 dark:text-slate-400">
              <span dir="ltr" translate="no" className="inline-block max-w-full truncate align-bottom">
                @{username}
              </span>
            </p>
          </div>
          <div className="flex w-full shrink-0 gap-2 sm:mb-1 sm:w-auto">{actions}</div>
        </div>
        {children}
      </div>
    </>
  );
}
