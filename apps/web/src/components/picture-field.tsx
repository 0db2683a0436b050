import { ImageUp, X } from 'lucide-react';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { useT } from '../lib/i18n/i18n';
import { cn } from '../lib/ui/cn';
import { Avatar } from './avatar';

// The one picture field of the forms that set a picture (a profile's, a group's): the current picture or a
// preview of the chosen one, an upload button, a remove button once a file is chosen, and a hint. The file is
// checked here before upload; a refused one leaves any earlier, valid choice in place.

export interface PictureFieldTexts {
  /** The legend, and the file input's accessible name. */
  label: string;
  currentAlt: string;
  previewAlt: string;
  /** The upload button's text. */
  choose: string;
  /** The remove button's accessible name. */
  remove: string;
  hint: string;
}

export function PictureField({
  texts,
  current,
  name,
  group = false,
  file,
  onChange,
  problem,
  droppable = false,
  disabled = false,
}: {
  texts: PictureFieldTexts;
  current: string | null;
  /** Whose picture: a person's initials stand in while there is none. */
  name?: string;
  group?: boolean;
  file: File | null;
  onChange: (file: File | null) => void;
  /** Why a chosen file cannot be used, or null. */
  problem: (file: File) => string | null;
  /** Whether a file may also be dropped on the field (a pointer shortcut; the input is the keyboard path). */
  droppable?: boolean;
  disabled?: boolean;
}) {
  const t = useT();
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const preview = useObjectUrl(file);

  const choose = (chosen: File | null | undefined) => {
    // Let the same file be chosen again after a refusal or a removal.
    if (inputRef.current) inputRef.current.value = '';
    if (!chosen) return;
    const refusal = problem(chosen);
    setError(refusal);
    if (!refusal) onChange(chosen);
  };

  const dropHandlers = droppable
    ? {
        onDragOver: (event: DragEvent) => {
          event.preventDefault();
          setDragging(true);
        },
        onDragLeave: () => setDragging(false),
        onDrop: (event: DragEvent) => {
          event.preventDefault();
          setDragging(false);
          if (!disabled) choose(event.dataTransfer.files[0]);
        },
      }
    : {};

  return (
    <fieldset className="space-y-1.5" disabled={disabled}>
      <legend className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
        {texts.label}
      </legend>
      <div
        {...dropHandlers}
        className={cn(
          'flex flex-col items-center gap-4 rounded-xl border-2 border-dashed px-4 py-5 text-center transition-colors sm:flex-row sm:text-start',
          dragging
            ? 'border-brand-500 bg-brand-50 dark:bg-brand-500/15'
            : 'border-slate-300 dark:border-slate-700 bg-slate-50/60 dark:bg-slate-950/40',
          error && 'border-red-300 dark:border-red-800',
        )}
      >
        <Avatar
          src={preview ?? current}
          name={name}
          group={group}
          size="2xl"
          alt={preview ? texts.previewAlt : texts.currentAlt}
        />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center justify-center gap-2 sm:justify-start">
            <label
              htmlFor={id}
              className="inline-flex h-9 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 dark:border-slate-700 bg-white dark:bg-slate-900 px-3 text-sm font-medium text-slate-800 dark:text-slate-200 shadow-sm transition-colors hover:bg-slate-50 dark:hover:bg-slate-800 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600"
            >
              <ImageUp aria-hidden="true" className="size-4" />
              {texts.choose}
              <input
                ref={inputRef}
                id={id}
                type="file"
                accept="image/*"
                className="sr-only"
                aria-label={texts.label}
                aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(' ')}
                aria-invalid={error ? true : undefined}
                onChange={(event) => choose(event.target.files?.[0])}
              />
            </label>
            {file && (
              <button
                type="button"
                aria-label={texts.remove}
                onClick={() => {
                  onChange(null);
                  setError(null);
                }}
                className="inline-flex h-9 items-center gap-1.5 rounded-lg px-3 text-sm font-medium text-slate-600 dark:text-slate-400 hover:bg-slate-100 dark:hover:bg-slate-800 hover:text-slate-900 dark:hover:text-white"
              >
                <X aria-hidden="true" className="size-4" />
                {t('account.picture.remove')}
              </button>
            )}
            {droppable && (
              <span className="hidden text-sm text-slate-500 dark:text-slate-400 sm:inline">
                {t('account.picture.orDrop')}
              </span>
            )}
          </div>
          {file && (
            <p translate="no" className="mt-2 truncate text-sm text-slate-700 dark:text-slate-300">
              {file.name}
            </p>
          )}
          <p id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            {texts.hint}
          </p>
        </div>
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-xs font-medium text-red-600 dark:text-red-400">
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
