import {
  CHANNEL_TEXT,
  COMMAND_TEXT,
  FORWARD_TEXT,
  LINK_PREVIEW_TEXT,
  MAX_PINS_PER_CHAT,
  MESSAGE_MAX_LENGTH,
  MESSAGE_TEXT,
  PIN_TEXT,
  POLL_MAX_OPTIONS,
  POLL_MIN_OPTIONS,
  POLL_OPTION_MAX_LENGTH,
  POLL_QUESTION_MAX_LENGTH,
  POLL_TEXT,
  SAVED_TEXT,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_TEXT,
  THREAD_TEXT,
} from '@parley/protocol';
import type { MessageId } from '../../../lib/i18n/i18n';
import { knowServerTexts } from '../../../lib/i18n/server-texts';

// The server's English texts the room, its threads, search and Saved messages meet beyond MSG (a message that
// cannot be sent, edited, pinned, forwarded or voted on, a command's answer, a page that expired), with their
// catalog ids: known to the app's lookup once this code loads. A number the protocol put in a text is matched as
// a placeholder, so the translation says the same number.

/** `text` with the number `n` in it as `{name}`: whatever number the server said is matched. */
const withCount = (text: string, n: number, name: string) => text.replace(String(n), `{${name}}`);

export const ROOM_SERVER_TEXTS: ReadonlyArray<readonly [english: string, id: MessageId]> = [
  [MESSAGE_TEXT.blank, 'browse.server.message.blank'],
  [withCount(MESSAGE_TEXT.tooLong, MESSAGE_MAX_LENGTH, 'max'), 'browse.server.message.tooLong'],
  [MESSAGE_TEXT.notYours, 'browse.server.message.notYours'],
  [MESSAGE_TEXT.cannotDelete, 'browse.server.message.cannotDelete'],
  [MESSAGE_TEXT.deleted, 'browse.server.message.deleted'],
  [MESSAGE_TEXT.notFound, 'browse.server.message.notFound'],
  [MESSAGE_TEXT.badReply, 'browse.server.message.badReply'],
  [MESSAGE_TEXT.badEmoji, 'browse.server.message.badEmoji'],
  [withCount(MESSAGE_TEXT.tooManyEmoji, 20, 'max'), 'browse.server.message.tooManyEmoji'],
  [CHANNEL_TEXT.joinToPost, 'browse.server.joinToPost'],
  [PIN_TEXT.onlyAdmins, 'browse.server.pin.onlyAdmins'],
  [withCount(PIN_TEXT.tooMany, MAX_PINS_PER_CHAT, 'max'), 'browse.server.pin.tooMany'],
  [PIN_TEXT.notPinnable, 'browse.server.pin.notPinnable'],
  [FORWARD_TEXT.deleted, 'browse.server.forward.deleted'],
  [LINK_PREVIEW_TEXT.notYours, 'browse.server.preview.notYours'],
  [POLL_TEXT.questionRequired, 'browse.server.poll.questionRequired'],
  [
    withCount(POLL_TEXT.questionTooLong, POLL_QUESTION_MAX_LENGTH, 'max'),
    'browse.server.poll.questionTooLong',
  ],
  [POLL_TEXT.optionRequired, 'browse.server.poll.optionRequired'],
  [withCount(POLL_TEXT.optionTooLong, POLL_OPTION_MAX_LENGTH, 'max'), 'browse.server.poll.optionTooLong'],
  [withCount(POLL_TEXT.tooFewOptions, POLL_MIN_OPTIONS, 'min'), 'browse.server.poll.tooFewOptions'],
  [withCount(POLL_TEXT.tooManyOptions, POLL_MAX_OPTIONS, 'max'), 'browse.server.poll.tooManyOptions'],
  [POLL_TEXT.sameOptions, 'browse.server.poll.sameOptions'],
  [POLL_TEXT.notFound, 'browse.server.poll.notFound'],
  [POLL_TEXT.closed, 'browse.server.poll.closed'],
  [POLL_TEXT.oneChoice, 'browse.server.poll.oneChoice'],
  [POLL_TEXT.badOption, 'browse.server.poll.badOption'],
  [POLL_TEXT.sameOptionTwice, 'browse.server.poll.sameOptionTwice'],
  [POLL_TEXT.notYours, 'browse.server.poll.notYours'],
  [POLL_TEXT.joinToVote, 'browse.server.poll.joinToVote'],
  [THREAD_TEXT.badRoot, 'browse.server.thread.badRoot'],
  [THREAD_TEXT.badCursor, 'browse.server.thread.badCursor'],
  [SAVED_TEXT.badCursor, 'browse.server.saved.badCursor'],
  [SEARCH_TEXT.blank, 'browse.server.search.blank'],
  [withCount(SEARCH_TEXT.tooLong, SEARCH_QUERY_MAX_LENGTH, 'max'), 'browse.server.search.tooLong'],
  [SEARCH_TEXT.badDate, 'browse.server.search.badDate'],
  [SEARCH_TEXT.badCursor, 'browse.server.search.badCursor'],
  [COMMAND_TEXT.unknown('{name}'), 'browse.server.command.unknown'],
  [COMMAND_TEXT.notCommand, 'browse.server.command.notCommand'],
  [COMMAND_TEXT.timeout, 'browse.server.command.timeout'],
  [COMMAND_TEXT.badAnswer('{name}'), 'browse.server.command.badAnswer'],
  [COMMAND_TEXT.groupsOnly('{name}'), 'browse.server.command.groupsOnly'],
  [COMMAND_TEXT.onlyAdmins('{name}'), 'browse.server.command.onlyAdmins'],
  [COMMAND_TEXT.nobody, 'browse.server.command.nobody'],
  [COMMAND_TEXT.meUsage, 'browse.server.command.meUsage'],
  [COMMAND_TEXT.topicUsage, 'browse.server.command.topicUsage'],
  [COMMAND_TEXT.inviteUsage, 'browse.server.command.inviteUsage'],
  [COMMAND_TEXT.muteUsage, 'browse.server.command.muteUsage'],
  [COMMAND_TEXT.topicSet('{topic}'), 'browse.server.command.topicSet'],
  [COMMAND_TEXT.invited('{names}'), 'browse.server.command.invited'],
  [COMMAND_TEXT.alreadyIn, 'browse.server.command.alreadyIn'],
  [COMMAND_TEXT.left, 'browse.server.command.left'],
  [COMMAND_TEXT.onlyVisibleToYou, 'room.commands.onlyYou'],
];

knowServerTexts(ROOM_SERVER_TEXTS);
