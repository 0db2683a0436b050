import { MSG } from '@parley/protocol';
import { type MessageId, t } from './i18n';

// The API answers in English (`detail`, field messages: protocol's MSG and its kin, word for word); the web app
// shows each in the reader's language by its catalog id. The lookup goes from the English text to the id, built
// from the protocol's own constants (not from the loaded catalog, which is the reader's language): MSG here, on
// every screen; a feature adds the texts only its screens meet when its code loads (knowServerTexts), so the
// first screen's JavaScript carries no more than MSG.

type MsgKey = keyof typeof MSG;
// Typed: a MSG entry without its `msg.` catalog entry does not compile.
const msgId = (key: MsgKey): `msg.${MsgKey}` & MessageId => `msg.${key}`;

/** MSG's English texts, with their catalog ids. */
export const MSG_TEXT_IDS: ReadonlyArray<readonly [english: string, id: MessageId]> = (
  Object.keys(MSG) as MsgKey[]
).map((key) => [MSG[key], msgId(key)] as const);

const idOf = new Map<string, MessageId>(MSG_TEXT_IDS);
/** Texts the server fills in ('… Sign in with {name}.'): a pattern per text, its placeholders' names in order. */
const patterns: Array<{ pattern: RegExp; names: string[]; id: MessageId }> = [];

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A text with `{placeholder}`s as a pattern matching it whatever fills them, and the placeholders' names in order. */
export function patternOf(english: string): { pattern: RegExp; names: string[] } {
  const names = [...english.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const source = english
    .split(/\{\w+\}/)
    .map(literal)
    .join('(.+?)');
  return { pattern: new RegExp(`^${source}$`, 's'), names };
}

/**
 * More English server texts and their ids, known from now on. A text with `{placeholder}`s is matched whatever
 * the server put in them, and the translation gets the same values.
 */
export function knowServerTexts(entries: ReadonlyArray<readonly [english: string, id: MessageId]>): void {
  for (const [english, id] of entries) {
    const filled = patternOf(english);
    if (filled.names.length > 0) patterns.push({ ...filled, id });
    else idOf.set(english, id);
  }
}

/** The catalog id of an English server text, if the app knows it. */
export const serverTextId = (english: string): MessageId | undefined => idOf.get(english);

/** A server's (or the protocol's validation) English text in the reader's language; unknown texts stay as sent. */
export function localText(english: string): string {
  let id = idOf.get(english);
  let values: Record<string, string> | undefined;
  for (const p of id ? [] : patterns) {
    const match = p.pattern.exec(english);
    if (!match) continue;
    id = p.id;
    values = Object.fromEntries(p.names.map((name, i) => [name, match[i + 1] ?? '']));
    break;
  }
  const text = id ? t(id, values) : english;
  // A catalog that could not load leaves ids: the English text reads better than its id.
  return text === id ? english : text;
}
