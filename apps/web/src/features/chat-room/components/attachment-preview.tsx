import type { ChatFile } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { Download, X } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { buttonClasses } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n/i18n';
import { formatBytes } from '../lib/attachment-files';
import { closePreview, fileHref, usePreviewStore } from '../lib/preview-store';
import { fileIconOf } from './attachment-list';

/** Text past this many characters is cut in the preview; the whole file is a download away. */
const TEXT_PREVIEW_CHARS = 200_000;

/**
 * The full-screen attachment preview (SPEC §2): an image, a video, a PDF in a frame or text in a framed box;
 * anything else offers 'Download file'. A modal <dialog>: Escape closes it and focus returns to the opener.
 */
export function AttachmentPreview() {
  const file = usePreviewStore((s) => s.file);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (file && !dialog.open) dialog.showModal();
    if (!file && dialog.open) dialog.close();
  }, [file]);

  // Leaving the room with the preview open must not leave it open for the next room.
  useEffect(() => closePreview, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        closePreview();
      }}
      onClose={closePreview}
      className="m-0 h-dvh max-h-none w-screen max-w-none bg-slate-950/95 p-0 text-white backdrop:bg-black/70"
    >
      {file && <PreviewFrame file={file} titleId={titleId} />}
    </dialog>
  );
}

function PreviewFrame({ file, titleId }: { file: ChatFile; titleId: string }) {
  const t = useT();
  const name = file.name || t('room.preview.attachment');
  const href = fileHref(file.file);
  return (
    <div className="flex h-full flex-col">
      <header className="flex items-center gap-2 border-b border-white/10 px-3 py-2 sm:px-4">
        <div className="min-w-0 flex-1">
          <h2 translate="no" id={titleId} className="truncate text-sm font-semibold sm:text-base">
            {name}
          </h2>
          {typeof file.size === 'number' && <p className="text-xs text-white/60">{formatBytes(file.size)}</p>}
        </div>
        <a
          href={href}
          download={name}
          aria-label={t('room.preview.downloadName', { name })}
          title={t('room.preview.download')}
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-white/80 hover:bg-white/10 hover:text-white"
        >
          <Download aria-hidden="true" className="size-5" />
        </a>
        <button
          type="button"
          onClick={closePreview}
          aria-label={t('room.preview.close')}
          title={t('room.preview.close')}
          autoFocus
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-white/80 hover:bg-white/10 hover:text-white"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </header>
      <div className="flex min-h-0 flex-1 items-center justify-center p-2 sm:p-6">
        <PreviewBody file={file} name={name} href={href} />
      </div>
    </div>
  );
}

function PreviewBody({ file, name, href }: { file: ChatFile; name: string; href: string }) {
  const t = useT();
  switch (file.type) {
    case 'image':
      return <img src={href} alt={name} className="max-h-full max-w-full rounded object-contain" />;
    case 'video':
      // biome-ignore lint/a11y/useMediaCaption: people's own clips come without captions.
      return <video src={href} controls className="max-h-full max-w-full rounded" aria-label={name} />;
    case 'pdf':
      return (
        <iframe
          src={href}
          title={t('room.preview.pdf', { name })}
          className="h-full w-full max-w-5xl rounded-lg bg-white dark:bg-slate-900"
        />
      );
    case 'text':
      return <TextPreview href={href} name={name} />;
    default:
      return <DownloadOnly file={file} name={name} href={href} />;
  }
}

function TextPreview({ href, name }: { href: string; name: string }) {
  const t = useT();
  const text = useQuery({
    queryKey: ['attachments', 'text', href],
    queryFn: async ({ signal }) => {
      const response = await fetch(href, { signal });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const body = await response.text();
      return body.length > TEXT_PREVIEW_CHARS ? `${body.slice(0, TEXT_PREVIEW_CHARS)}\n…` : body;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (text.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-white/80">
        <Spinner size="sm" /> {t('room.preview.loading')}
      </p>
    );
  }
  if (text.isError) {
    return (
      <div role="alert" className="text-center text-sm">
        <p>{t('room.preview.loadFailed')}</p>
        <a href={href} download={name} className={buttonClasses('secondary', 'md', 'mt-4')}>
          {t('room.preview.downloadFile')}
        </a>
      </div>
    );
  }
  return (
    <section
      aria-label={t('room.preview.textOf', { name })}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the framed text scrolls, so the keyboard must reach it.
      tabIndex={0}
      className="h-full w-full max-w-4xl overflow-auto rounded-lg border border-slate-300 dark:border-slate-700 bg-white dark:bg-slate-900 p-4 text-slate-900 dark:text-slate-100"
    >
      <pre translate="no" className="font-mono text-sm break-words whitespace-pre-wrap">
        {text.data}
      </pre>
    </section>
  );
}

function DownloadOnly({ file, name, href }: { file: ChatFile; name: string; href: string }) {
  const t = useT();
  const Icon = fileIconOf(file.type);
  return (
    <div className="flex max-w-sm flex-col items-center text-center">
      <Icon aria-hidden="true" className="size-16 text-white/70" strokeWidth={1.25} />
      <p translate="no" className="mt-3 font-medium break-all">
        {name}
      </p>
      <p className="mt-1 text-sm text-white/60">{t('room.preview.none')}</p>
      <a href={href} download={name} className={buttonClasses('primary', 'md', 'mt-5')}>
        <Download aria-hidden="true" className="size-4" />
        {t('room.preview.downloadFile')}
      </a>
    </div>
  );
}
