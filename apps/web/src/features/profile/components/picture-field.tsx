import { ImageUp, X } from 'lucide-react';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';
import { imageProblem } from '../lib/profile-errors';
import { Avatar } from './avatar';

/**
 * 'Profile Picture': choose (or drop) one image, checked here before upload, with a preview of the
 * chosen picture in place of the current one.
 */
export function PictureField({
  current,
  name,
  file,
  onChange,
  disabled = false,
}: {
  current: string | null;
  name: string;
  file: File | null;
  onChange: (file: File | null) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const preview = useObjectUrl(file);

  const choose = (chosen: File | null | undefined) => {
    if (!chosen) return;
    // A refused file leaves any earlier, valid choice in place.
    const problem = imageProblem(chosen);
    setError(problem);
    if (!problem) onChange(chosen);
    // Let the same file be chosen again after a refusal or a removal.
    if (inputRef.current) inputRef.current.value = '';
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) choose(event.dataTransfer.files[0]);
  };

  return (
    <fieldset className="space-y-1.5" disabled={disabled}>
      <legend className="mb-1.5 block text-sm font-medium text-slate-700">Profile Picture</legend>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer shortcut; the file input is the keyboard path */}
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          'flex flex-col items-center gap-4 rounded-xl border-2 border-dashed px-4 py-5 text-center transition-colors sm:flex-row sm:text-left',
          dragging ? 'border-brand-500 bg-brand-50' : 'border-slate-300 bg-slate-50/60',
          error && 'border-red-300',
        )}
      >
        <Avatar
          src={preview ?? current}
          name={name}
          size="xl"
          alt={preview ? 'Preview of the chosen picture' : 'Current profile picture'}
        />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center justify-center gap-2 sm:justify-start">
            <label
              htmlFor={id}
              className="inline-flex h-9 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 shadow-sm transition-colors hover:bg-slate-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600"
            >
              <ImageUp aria-hidden="true" className="size-4" />
              {file ? 'Choose another' : 'Upload a file'}
              <input
                ref={inputRef}
                id={id}
                type="file"
                accept="image/*"
                className="sr-only"
                aria-label="Profile Picture"
                aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(' ')}
                aria-invalid={error ? true : undefined}
                onChange={(event) => choose(event.target.files?.[0])}
              />
            </label>
            {file && (
              <button
                type="button"
                aria-label="Remove chosen picture"
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
            <span className="hidden text-sm text-slate-500 sm:inline">or drag and drop</span>
          </div>
          {file && <p className="mt-2 truncate text-sm text-slate-700">{file.name}</p>}
          <p id={hintId} className="mt-1 text-xs text-slate-500">
            PNG, JPG, GIF up to 10MB
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
