import { Users } from 'lucide-react';
import { cn } from '../../../lib/cn';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('') || '?';

/** A chat's picture: the image, else a group placeholder icon for groups or the name's initials for people. */
export function ChatAvatar({
  src,
  name,
  group = false,
  online = false,
  className,
}: {
  src: string | null | undefined;
  name: string;
  group?: boolean;
  online?: boolean;
  className?: string;
}) {
  return (
    <span className={cn('relative inline-flex size-12 shrink-0', className)}>
      {src ? (
        <img src={src} alt="" className="size-full rounded-full bg-slate-100 object-cover" loading="lazy" />
      ) : (
        <span
          aria-hidden="true"
          className={cn(
            'inline-flex size-full items-center justify-center rounded-full text-sm font-semibold',
            group ? 'bg-brand-100 text-brand-700' : 'bg-slate-200 text-slate-600',
          )}
        >
          {group ? <Users className="size-5" /> : initials(name)}
        </span>
      )}
      {online && (
        <span
          aria-hidden="true"
          className="absolute right-0 bottom-0 size-3 rounded-full bg-emerald-500 ring-2 ring-white"
        />
      )}
    </span>
  );
}
