import { UserRound, Users } from 'lucide-react';
import { cn } from '../../../lib/cn';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');

/** A round picture: the image, else initials, else a placeholder icon (deleted accounts, groups). */
export function UserAvatar({
  src,
  name,
  size = 'md',
  group = false,
  className,
}: {
  src: string | null | undefined;
  name: string;
  size?: 'sm' | 'md';
  group?: boolean;
  className?: string;
}) {
  const dims = size === 'sm' ? 'size-8 text-xs' : 'size-10 text-sm';
  if (src) {
    return (
      <img
        src={src}
        alt=""
        loading="lazy"
        className={cn('shrink-0 rounded-full bg-slate-100 object-cover', dims, className)}
      />
    );
  }
  const text = group ? '' : initials(name);
  const Icon = group ? Users : UserRound;
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-full font-semibold',
        group ? 'bg-brand-100 text-brand-700' : 'bg-slate-200 text-slate-600',
        dims,
        className,
      )}
    >
      {text || <Icon className="size-1/2" />}
    </span>
  );
}
