import { Fragment, type ReactNode, startTransition, useEffect, useState } from 'react';
import { afterFirstScreen } from '../../ui/first-screen';
import type { FormatNode } from './format';

// Message bodies with their light formatting, drawn as React elements (text is always text: React escapes it,
// and nothing here sets HTML). The formatter (markdown-it) is a chunk of its own, loaded the first time a body
// that may be formatted is shown; until it is there, and if it cannot be loaded, the body shows as plain text.

type Formatter = typeof import('./format');

let formatter: Formatter | null = null;
let loading: Promise<Formatter | null> | null = null;
const listeners = new Set<() => void>();

/** Loads the formatter once; a failed load (offline) may be tried again by the next body. */
export function loadFormatter(): Promise<Formatter | null> {
  loading ??= import('./format').then(
    (module) => {
      formatter = module;
      for (const listener of listeners) listener();
      return module;
    },
    () => {
      loading = null;
      return null;
    },
  );
  return loading;
}

/**
 * The formatter once it is loaded. Its arrival redraws every formatted body on the screen: that is a transition,
 * which React renders in slices (an external store's change would be drawn in one task, a long one on a phone).
 */
function useFormatter(): Formatter | null {
  const [loaded, setLoaded] = useState(formatter);
  useEffect(() => {
    if (loaded) return;
    const listener = () => startTransition(() => setLoaded(formatter));
    listeners.add(listener);
    // Loaded between this body's render and this effect: no notification will come.
    if (formatter) listener();
    return () => {
      listeners.delete(listener);
    };
  }, [loaded]);
  return loaded;
}

/** Whether a body has anything the formatter would change: a marker character or a web address. */
export function mayFormat(body: string): boolean {
  return /[*_~`]|https?:\/\/|www\./i.test(body);
}

export const LINK_REL = 'noopener noreferrer nofollow';

export interface RichTextProps {
  body: string;
  /** Draws a run of plain text (outside code and links): the room links its @mentions here. */
  renderText?: (text: string) => ReactNode;
}

/** The body's formatted content, all phrasing content (a code block is a block-level <code>), for a <p>. */
export function RichText({ body, renderText = (text) => text }: RichTextProps) {
  const loaded = useFormatter();
  const wanted = mayFormat(body);
  // The first screen is drawn in plain text first; the formatter's chunk follows (lib/first-screen.ts).
  useEffect(() => {
    if (wanted && !loaded) return afterFirstScreen(() => void loadFormatter());
  }, [wanted, loaded]);
  if (!wanted || !loaded) return <>{renderText(body)}</>;
  return <>{renderNodes(formatted(loaded, body), renderText)}</>;
}

/**
 * Bodies already parsed, newest last: a room draws the same bodies again and again (scrolling, ticks, reactions),
 * and markdown-it's parse is the costly part. The nodes are read-only data, so one copy serves every render.
 */
const parsed = new Map<string, FormatNode[]>();
const PARSED_MAX = 500;
function formatted(loaded: Formatter, body: string): FormatNode[] {
  let nodes = parsed.get(body);
  if (nodes === undefined) {
    nodes = loaded.formatBody(body);
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value as string);
    parsed.set(body, nodes);
  }
  return nodes;
}

export function renderNodes(nodes: FormatNode[], renderText: (text: string) => ReactNode): ReactNode[] {
  return nodes.map((node, i) => <Fragment key={i}>{renderNode(node, renderText)}</Fragment>);
}

function renderNode(node: FormatNode, renderText: (text: string) => ReactNode): ReactNode {
  switch (node.type) {
    case 'text':
      return renderText(node.text);
    case 'strong':
      return <strong className="font-semibold">{renderNodes(node.children, renderText)}</strong>;
    case 'em':
      return <em>{renderNodes(node.children, renderText)}</em>;
    case 's':
      return <s>{renderNodes(node.children, renderText)}</s>;
    case 'code':
      // Code reads left to right in any language.
      return (
        <code dir="ltr" className="rounded bg-black/10 px-1 py-px font-mono text-[0.9em]">
          {node.text}
        </code>
      );
    case 'codeblock':
      // A block of its own, yet phrasing content, so a body can stay one paragraph (<pre> may not sit in <p>).
      return (
        <code
          dir="ltr"
          data-block=""
          data-lang={node.lang || undefined}
          className="my-1 block rounded-lg bg-black/10 px-2 py-1.5 font-mono text-[0.85em] whitespace-pre-wrap [overflow-wrap:anywhere]"
        >
          {node.text}
        </code>
      );
    case 'link':
      // Nothing inside a link is drawn by renderText: a mention there would be a link in a link.
      return (
        <a
          href={node.href}
          target="_blank"
          rel={LINK_REL}
          className="font-medium underline underline-offset-2 hover:decoration-2"
        >
          {renderNodes(node.children, (text) => text)}
        </a>
      );
  }
}
