import { GROUP_AVATAR_MAX_BYTES } from '@parley/protocol';
import { ImageUp, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { GroupPicture } from './group-picture';

export const GROUP_AVATAR_HINT = 'Recommended: Square image, max 2MB';

/** Why a chosen group picture cannot be used, or null. */
export function groupAvatarProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/') || file.type === 'image/svg+xml')
    return 'Please select a valid image file.';
  if (file.size > GROUP_AVATAR_MAX_BYTES) return 'Image size must be less than 2MB.';
  return null;
}

/** 'Group avatar': the current picture, or a preview of the chosen one, an upload button and the size hint. */
export function GroupAvatarField({
  current,
  file,
  onChange,
  disabled = false,
}: {
  current: string | null;
  file: File | null;
  onChange: (file: File | null) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const preview = useObjectUrl(file);

  const choose = (chosen: File | undefined) => {
    if (inputRef.current) inputRef.current.value = '';
    if (!chosen) return;
    const problem = groupAvatarProblem(chosen);
    setError(problem);
    if (!problem) onChange(chosen);
  };

  return (
    <fieldset className="space-y-1.5" disabled={disabled}>
      <legend className="mb-1.5 block text-sm font-medium text-slate-700">Group avatar</legend>
      <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed border-slate-300 bg-slate-50/60 px-4 py-4 text-center sm:flex-row sm:text-left">
        <GroupPicture
          src={preview ?? current}
          size="xl"
          alt={preview ? 'Preview of the chosen group avatar' : 'Current group avatar'}
        />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center justify-center gap-2 sm:justify-start">
            <label
              htmlFor={id}
              className="inline-flex h-9 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 shadow-sm transition-colors hover:bg-slate-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600"
            >
              <ImageUp aria-hidden="true" className="size-4" />
              {file || current ? 'Change image' : 'Upload image'}
              <input
                ref={inputRef}
                id={id}
                type="file"
                accept="image/*"
                className="sr-only"
                aria-label="Group avatar"
                aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(' ')}
                aria-invalid={error ? true : undefined}
                onChange={(event) => choose(event.target.files?.[0])}
              />
            </label>
            {file && (
              <button
                type="button"
                aria-label="Remove chosen image"
                onClick={() => {
                  onChange(null);
                  setError(null);
                }}
                className="inline-flex h-9 items-center gap-1.5 rounded-lg px-3 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
              >
                <X aria-hidden="true" className="size-4" />
                Remove
              </button>
            )}
          </div>
          {file && <p className="mt-2 truncate text-sm text-slate-700">{file.name}</p>}
          <p id={hintId} className="mt-1 text-xs text-slate-500">
            {GROUP_AVATAR_HINT}
          </p>
        </div>
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-xs font-medium text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** An object URL for the chosen file, revoked when the file changes or the field goes away. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}
