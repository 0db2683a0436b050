import { Users } from 'lucide-react';
import { useState } from 'react';
import { cn } from '../lib/ui/cn';

// The one round picture of a person or a group, used by every screen that shows one: the image when there
// is one (and it loads), else a placeholder on a soft tint: a person's initials, or the group icon.

const SIZES = {
  xs: 'size-6 text-[10px]',
  sm: 'size-8 text-xs',
  md: 'size-10 text-sm',
  lg: 'size-12 text-sm',
  xl: 'size-14 text-lg',
  '2xl': 'size-20 text-2xl',
  '3xl': 'size-24 text-3xl sm:size-28',
} as const;

export type AvatarSize = keyof typeof SIZES;

/** The tint behind a placeholder: brand on profile screens, grey in the chat list and the room. */
const TONES = {
  brand: 'bg-brand-100 dark:bg-brand-500/25 text-brand-700 dark:text-brand-200',
  muted: 'bg-slate-200 dark:bg-slate-700 text-slate-600 dark:text-slate-400',
} as const;

/** Up to two initials ('Ada Lovelace' → 'AL'), or '?' for a name with no letters to take. */
export const initials = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('') || '?';

/**
 * Decorative by default, since the name is always shown beside it; with `alt` it is an image of its own.
 * A group's placeholder is always the brand-tinted icon.
 */
export function Avatar({
  src,
  name = '',
  group = false,
  size = 'md',
  tone = 'brand',
  alt = '',
  lazy = false,
  className,
}: {
  src: string | null | undefined;
  name?: string;
  group?: boolean;
  size?: AvatarSize;
  tone?: keyof typeof TONES;
  alt?: string;
  /** Long lists (chats, messages) load pictures as they scroll into view. */
  lazy?: boolean;
  className?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const dims = SIZES[size];
  if (src && failed !== src) {
    return (
      <img
        src={src}
        alt={alt}
        loading={lazy ? 'lazy' : undefined}
        onError={() => setFailed(src)}
        className={cn('shrink-0 rounded-full bg-slate-100 dark:bg-slate-800 object-cover', dims, className)}
      />
    );
  }
  const classes = cn(
    'inline-flex shrink-0 items-center justify-center rounded-full font-semibold select-none',
    TONES[group ? 'brand' : tone],
    dims,
    className,
  );
  // Initials are drawn as generated content, not text: a link around the avatar is named for the person
  // ('Ada's profile'), and visible text missing from that name would fail axe's label-content-name-mismatch.
  const placeholder = group ? (
    <Users aria-hidden="true" className="size-1/2" />
  ) : (
    <span data-initials={initials(name)} className="before:content-[attr(data-initials)]" />
  );
  if (alt) {
    return (
      <span role="img" aria-label={alt} className={classes}>
        {placeholder}
      </span>
    );
  }
  return (
    <span aria-hidden="true" className={classes}>
      {placeholder}
    </span>
  );
}
