import { useState } from 'react';
import { cn } from '../../../lib/cn';

const SIZES = {
  sm: 'size-8 text-xs',
  md: 'size-10 text-sm',
  lg: 'size-14 text-lg',
  xl: 'size-20 text-2xl',
  '2xl': 'size-24 text-3xl sm:size-28',
} as const;

export type AvatarSize = keyof typeof SIZES;

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('') || '?';

/**
 * A round avatar: the picture when there is one (and it loads), otherwise the initials on a soft tint.
 * Decorative by default, since the name is always shown beside it.
 */
export function Avatar({
  src,
  name,
  size = 'md',
  alt = '',
  className,
}: {
  src: string | null | undefined;
  name: string;
  size?: AvatarSize;
  alt?: string;
  className?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const dims = SIZES[size];
  if (src && failed !== src) {
    return (
      <img
        src={src}
        alt={alt}
        onError={() => setFailed(src)}
        className={cn('shrink-0 rounded-full bg-slate-100 object-cover', dims, className)}
      />
    );
  }
  const classes = cn(
    'inline-flex shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700 select-none',
    dims,
    className,
  );
  if (alt) {
    return (
      <span role="img" aria-label={alt} className={classes}>
        {initialsOf(name)}
      </span>
    );
  }
  return (
    <span aria-hidden="true" className={classes}>
      {initialsOf(name)}
    </span>
  );
}
