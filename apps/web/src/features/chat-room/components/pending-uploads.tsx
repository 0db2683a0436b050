import type { FileType } from '@parley/protocol';
import { X } from 'lucide-react';
import { useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';
import { formatBytes, guessFileType } from '../lib/attachment-files';
import type { StagedFile } from '../lib/staged-files';
import { fileIconOf } from './attachment-list';

export interface PendingUpload {
  name: string;
  size: number;
  type: FileType;
}

/** The files of a message still on its way: their names, then the upload's progress, then 'Sending...'. */
export function PendingUploads({
  uploads,
  progress,
  uploading,
}: {
  uploads: PendingUpload[];
  /** 0..1 */
  progress: number;
  uploading: boolean;
}) {
  const t = useT();
  if (uploads.length === 0) return null;
  const percent = Math.round(progress * 100);
  return (
    <div className="mt-1 w-56 max-w-full">
      <ul className="flex flex-col gap-1" aria-label={t('room.files.sending')}>
        {uploads.map((upload, i) => {
          const Icon = fileIconOf(upload.type);
          return (
            <li key={i} className="flex items-center gap-2 rounded-lg bg-white/15 px-2.5 py-1.5">
              <Icon aria-hidden="true" className="size-5 shrink-0" strokeWidth={1.5} />
              <span translate="no" className="min-w-0 flex-1 truncate text-sm">
                {upload.name}
              </span>
              <span className="shrink-0 text-xs text-white/75">{formatBytes(upload.size)}</span>
            </li>
          );
        })}
      </ul>
      <div
        role="progressbar"
        aria-label={t('room.files.progress')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mt-2 h-1.5 overflow-hidden rounded-full bg-white/25"
      >
        <div
          className={cn(
            'h-full rounded-full bg-white dark:bg-slate-900 transition-[width]',
            !uploading && 'animate-pulse',
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-white/80">
        {/* At 100% the server still checks the files and makes thumbnails. */}
        {uploading
          ? percent < 100
            ? t('room.files.uploading', { percent })
            : t('room.files.processing')
          : t('room.files.sendingNow')}
      </p>
    </div>
  );
}

/**
 * The files chosen, pasted or dropped into the composer and not sent yet: a thumbnail for an image, an icon for
 * anything else, each with its name, size and a button that takes it out.
 */
export function StagedFiles({ files, onRemove }: { files: StagedFile[]; onRemove: (key: string) => void }) {
  const t = useT();
  if (files.length === 0) return null;
  return (
    <ul
      aria-label={t('room.files.staged')}
      data-testid="staged-files"
      className="flex gap-2 overflow-x-auto border-b border-slate-100 bg-slate-50 px-3 py-2 dark:border-slate-800 dark:bg-slate-900"
    >
      {files.map(({ key, file, url }) => {
        const Icon = fileIconOf(guessFileType(file));
        return (
          <li
            key={key}
            className="relative flex w-28 shrink-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-800"
          >
            {url ? (
              <img src={url} alt={file.name} className="h-20 w-full object-cover" />
            ) : (
              <span className="flex h-20 items-center justify-center text-slate-500 dark:text-slate-400">
                <Icon aria-hidden="true" className="size-8" strokeWidth={1.5} />
              </span>
            )}
            <span
              translate="no"
              className="truncate px-1.5 pt-1 text-xs font-medium text-slate-800 dark:text-slate-100"
              title={file.name}
            >
              {file.name}
            </span>
            <span className="px-1.5 pb-1 text-[11px] text-slate-600 dark:text-slate-300">
              {formatBytes(file.size)}
            </span>
            <button
              type="button"
              onClick={() => onRemove(key)}
              aria-label={t('room.files.remove', { name: file.name })}
              title={t('room.files.remove', { name: file.name })}
              className="absolute top-1 end-1 inline-flex size-6 items-center justify-center rounded-full bg-slate-900/70 text-white hover:bg-slate-900"
            >
              <X aria-hidden="true" className="size-3.5" />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
