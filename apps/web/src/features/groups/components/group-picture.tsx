import { Users } from 'lucide-react';
import { cn } from '../../../lib/cn';

const SIZES = { md: 'size-10', xl: 'size-20' } as const;

/** A group's round picture, or the group placeholder icon when it has none. */
export function GroupPicture({
  src,
  size = 'md',
  alt = '',
  className,
}: {
  src: string | null | undefined;
  size?: keyof typeof SIZES;
  alt?: string;
  className?: string;
}) {
  if (src) {
    return (
      <img
        src={src}
        alt={alt}
        className={cn('shrink-0 rounded-full bg-slate-100 object-cover', SIZES[size], className)}
      />
    );
  }
  const classes = cn(
    'inline-flex shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-700',
    SIZES[size],
    className,
  );
  const icon = <Users aria-hidden="true" className="size-1/2" />;
  if (alt) {
    return (
      <span role="img" aria-label={alt} className={classes}>
        {icon}
      </span>
    );
  }
  return (
    <span aria-hidden="true" className={classes}>
      {icon}
    </span>
  );
}
