import type { LinkPreview } from '@parley/protocol';
import { X } from 'lucide-react';
import { useState } from 'react';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';
import { toast } from '../../../lib/ui/toast';
import { removeLinkPreview } from '../api/link-previews';

/** A picture narrower than this shows as a thumbnail beside the text; a wider one spans the card. */
const WIDE_PICTURE = 300;

interface Props {
  preview: LinkPreview;
  own: boolean;
  /** Given to the sender: the × that takes the preview off. */
  remove?: { chatId: string; messageId: number };
}

/**
 * What a message's first link points to, as the server fetched it: site, title (the link), description and
 * picture, all text (nothing of the page runs here) and the picture served by Parley itself.
 */
export function LinkPreviewCard({ preview, own, remove }: Props) {
  const t = useT();
  const [removing, setRemoving] = useState(false);
  const { image } = preview;
  const wide = image !== null && image.width >= WIDE_PICTURE;
  const host = hostOf(preview.url);
  const onRemove = async () => {
    if (!remove) return;
    setRemoving(true);
    try {
      await removeLinkPreview(remove.chatId, remove.messageId);
    } catch (error) {
      toast.error(serverErrorOr(error, t('room.preview.removeFailed')));
      setRemoving(false);
    }
  };
  return (
    <div
      data-testid="link-preview"
      className={cn(
        'relative mt-1.5 max-w-80 overflow-hidden rounded-lg border-s-4',
        own
          ? 'border-white/80 bg-black/20'
          : 'border-brand-500 bg-slate-100 dark:border-brand-400 dark:bg-slate-800',
      )}
    >
      {wide && (
        <img
          src={image.url}
          width={image.width}
          height={image.height}
          alt=""
          loading="lazy"
          className="block h-auto max-h-64 w-full object-cover"
        />
      )}
      <div className={cn('flex gap-2 py-2 ps-2.5', remove ? 'pe-8' : 'pe-2.5')}>
        <div className="min-w-0 flex-1">
          <p
            translate="no"
            className={cn('truncate text-xs', own ? 'text-white' : 'text-slate-600 dark:text-slate-400')}
          >
            {preview.site_name ?? host}
          </p>
          {preview.title && (
            <a
              href={preview.url}
              target="_blank"
              rel="noopener noreferrer nofollow"
              translate="no"
              className={cn(
                'line-clamp-2 font-semibold break-words hover:underline',
                own ? 'text-white' : 'text-slate-900 dark:text-slate-100',
              )}
            >
              {preview.title}
            </a>
          )}
          {preview.description && (
            <p
              translate="no"
              className={cn(
                'mt-0.5 line-clamp-3 text-xs break-words',
                own ? 'text-white' : 'text-slate-700 dark:text-slate-300',
              )}
            >
              {preview.description}
            </p>
          )}
        </div>
        {image && !wide && (
          <img
            src={image.url}
            width={image.width}
            height={image.height}
            alt=""
            loading="lazy"
            className="size-14 shrink-0 rounded object-cover"
          />
        )}
      </div>
      {remove && (
        <button
          type="button"
          onClick={onRemove}
          disabled={removing}
          aria-label={t('room.preview.remove')}
          title={t('room.preview.remove')}
          className={cn(
            'absolute end-1 top-1 inline-flex size-6 items-center justify-center rounded-full',
            own
              ? 'bg-black/30 text-white hover:bg-black/45'
              : 'bg-white/85 text-slate-700 hover:bg-white dark:bg-slate-900/85 dark:text-slate-200',
          )}
        >
          <X aria-hidden="true" className="size-3.5" />
        </button>
      )}
    </div>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}
