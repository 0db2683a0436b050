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

/** More English server texts and their ids, known from now on. */
export function knowServerTexts(entries: ReadonlyArray<readonly [english: string, id: MessageId]>): void {
  for (const [english, id] of entries) idOf.set(english, id);
}

/** The catalog id of an English server text, if the app knows it. */
export const serverTextId = (english: string): MessageId | undefined => idOf.get(english);

/** A server's (or the protocol's validation) English text in the reader's language; unknown texts stay as sent. */
export function localText(english: string): string {
  const id = idOf.get(english);
  const text = id ? t(id) : english;
  // A catalog that could not load leaves ids: the English text reads better than its id.
  return text === id ? english : text;
}
