import type { Picker } from 'emoji-picker-element';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useT } from '../../../lib/i18n/i18n';
import { emojiDataFor } from '../lib/emoji-data';

// The one emoji picker of the room: the composer's smiley button and the reaction menu's 'More
// emoji' open it. It is emoji-picker-element (a web component with search, categories, skin tones and its own
// 'frequently used', keyboard accessible), loaded with its data only when first opened, drawn over the page
// next to the button that opened it. Escape or a click elsewhere closes it.

const GAP = 6;
const EDGE = 8;

export function EmojiPicker({
  anchor,
  label,
  onPick,
  onClose,
}: {
  anchor: RefObject<HTMLElement | null>;
  label: string;
  onPick: (emoji: string) => void;
  /** refocus: give the focus back to the button (Escape), not when the click went elsewhere. */
  onClose: (refocus: boolean) => void;
}) {
  const t = useT();
  const tr = useRef(t);
  tr.current = t;
  const box = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const onPickRef = useRef(onPick);
  onPickRef.current = onPick;
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    let live = true;
    let picker: HTMLElement | null = null;
    import('emoji-picker-element').then(
      ({ Picker }) => {
        if (!live || !host.current) return;
        // The emoji's names and search words in the document's language where the data has it (emoji-data.ts);
        // the picker's own words are the reader's, from the catalogs.
        const data = emojiDataFor(document.documentElement.lang);
        const element = new Picker({
          dataSource: data.url,
          locale: data.locale,
          i18n: pickerTexts(tr.current),
        });
        element.classList.add(document.documentElement.classList.contains('dark') ? 'dark' : 'light');
        element.addEventListener('emoji-click', (event) => {
          if (event.detail.unicode) onPickRef.current(event.detail.unicode);
        });
        host.current.append(element);
        picker = element;
        setState('ready');
        // The search box takes the focus once the picker has drawn itself.
        const focusSearch = (tries: number) => {
          const search = element.shadowRoot?.querySelector<HTMLInputElement>('input[type="search"]');
          if (search) search.focus();
          else if (tries > 0 && live) requestAnimationFrame(() => focusSearch(tries - 1));
        };
        focusSearch(30);
      },
      () => live && setState('failed'),
    );
    return () => {
      live = false;
      picker?.remove();
    };
  }, []);

  // Next to its button: above it when there is room (the composer sits at the bottom), otherwise below.
  useLayoutEffect(() => {
    const el = box.current;
    const button = anchor.current;
    if (!el || !button) return;
    const b = button.getBoundingClientRect();
    const { width, height } = el.getBoundingClientRect();
    const above = b.top - GAP - height >= EDGE;
    const top = above ? b.top - GAP - height : Math.min(b.bottom + GAP, window.innerHeight - height - EDGE);
    const left = Math.min(Math.max(EDGE, b.left), window.innerWidth - width - EDGE);
    el.style.top = `${Math.max(EDGE, top)}px`;
    el.style.left = `${Math.max(EDGE, left)}px`;
    el.style.visibility = 'visible';
  });

  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!box.current?.contains(target) && !anchor.current?.contains(target)) onCloseRef.current(false);
    };
    const onResize = () => onCloseRef.current(false);
    document.addEventListener('pointerdown', onPointer, true);
    window.addEventListener('resize', onResize);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      window.removeEventListener('resize', onResize);
    };
  }, [anchor]);

  return createPortal(
    <div
      ref={box}
      role="dialog"
      aria-label={label}
      data-testid="emoji-picker"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onClose(true);
      }}
      style={{ position: 'fixed', top: 0, left: 0, visibility: 'hidden' }}
      className="z-50 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xl dark:border-slate-700 dark:bg-slate-900 [&_emoji-picker]:[--num-columns:8] [&_emoji-picker]:max-w-[calc(100vw-1rem)]"
    >
      {state === 'loading' && (
        <p className="flex h-24 w-72 items-center justify-center text-sm text-slate-600 dark:text-slate-300">
          {t('browse.emoji.loading')}
        </p>
      )}
      {state === 'failed' && (
        <p role="alert" className="w-72 p-4 text-sm text-red-700 dark:text-red-300">
          {t('browse.emoji.failed')}
        </p>
      )}
      <div ref={host} />
    </div>,
    document.body,
  );
}

/** The picker's own words (emoji-picker-element's I18n), from the catalogs. */
function pickerTexts(t: ReturnType<typeof useT>): Picker['i18n'] {
  return {
    categoriesLabel: t('browse.emoji.categories'),
    emojiUnsupportedMessage: t('browse.emoji.unsupported'),
    favoritesLabel: t('browse.emoji.favorites'),
    loadingMessage: t('browse.emoji.loadingShort'),
    networkErrorMessage: t('browse.emoji.networkError'),
    regionLabel: t('browse.emoji.region'),
    searchDescription: t('browse.emoji.searchDescription'),
    searchLabel: t('browse.emoji.search'),
    searchResultsLabel: t('browse.emoji.searchResults'),
    skinToneDescription: t('browse.emoji.skinToneDescription'),
    // The picker puts the tone's name in place of {skinTone} itself.
    skinToneLabel: t('browse.emoji.skinTone', { skinTone: '{skinTone}' }),
    skinTonesLabel: t('browse.emoji.skinTones'),
    skinTones: [
      t('browse.emoji.tone.default'),
      t('browse.emoji.tone.light'),
      t('browse.emoji.tone.mediumLight'),
      t('browse.emoji.tone.medium'),
      t('browse.emoji.tone.mediumDark'),
      t('browse.emoji.tone.dark'),
    ],
    categories: {
      custom: t('browse.emoji.cat.custom'),
      'smileys-emotion': t('browse.emoji.cat.smileys'),
      'people-body': t('browse.emoji.cat.people'),
      'animals-nature': t('browse.emoji.cat.animals'),
      'food-drink': t('browse.emoji.cat.food'),
      'travel-places': t('browse.emoji.cat.travel'),
      activities: t('browse.emoji.cat.activities'),
      objects: t('browse.emoji.cat.objects'),
      symbols: t('browse.emoji.cat.symbols'),
      flags: t('browse.emoji.cat.flags'),
    },
  };
}
