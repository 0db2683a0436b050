import type { FileType } from '@parley/protocol';
import { cn } from '../../../lib/cn';
import { formatBytes } from '../lib/attachment-files';
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
  if (uploads.length === 0) return null;
  const percent = Math.round(progress * 100);
  return (
    <div className="mt-1 w-56 max-w-full">
      <ul className="flex flex-col gap-1" aria-label="Files being sent">
        {uploads.map((upload, i) => {
          const Icon = fileIconOf(upload.type);
          return (
            <li key={i} className="flex items-center gap-2 rounded-lg bg-white/15 px-2.5 py-1.5">
              <Icon aria-hidden="true" className="size-5 shrink-0" strokeWidth={1.5} />
              <span className="min-w-0 flex-1 truncate text-sm">{upload.name}</span>
              <span className="shrink-0 text-xs text-white/75">{formatBytes(upload.size)}</span>
            </li>
          );
        })}
      </ul>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mt-2 h-1.5 overflow-hidden rounded-full bg-white/25"
      >
        <div
          className={cn('h-full rounded-full bg-white transition-[width]', !uploading && 'animate-pulse')}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-white/80">
        {/* At 100% the server still checks the files and makes thumbnails. */}
        {uploading ? (percent < 100 ? `Uploading... ${percent}%` : 'Processing...') : 'Sending...'}
      </p>
    </div>
  );
}
