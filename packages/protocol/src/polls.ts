import { z } from 'zod';

// Polls: a message that asks a question with 2..10 answers. Members vote (one answer, or several when the poll
// allows it), change or take back their vote until its author closes it. An anonymous poll never tells who
// voted, to anyone, anywhere: only how many chose each answer, and each reader's own choices.

export const POLL_QUESTION_MAX_LENGTH = 300;
export const POLL_OPTION_MAX_LENGTH = 100;
export const POLL_MIN_OPTIONS = 2;
export const POLL_MAX_OPTIONS = 10;

export const POLL_TEXT = {
  questionRequired: 'Ask a question.',
  questionTooLong: `The question can be at most ${POLL_QUESTION_MAX_LENGTH} characters.`,
  optionRequired: 'Fill in this option or remove it.',
  optionTooLong: `An option can be at most ${POLL_OPTION_MAX_LENGTH} characters.`,
  tooFewOptions: `A poll needs at least ${POLL_MIN_OPTIONS} options.`,
  tooManyOptions: `A poll can have at most ${POLL_MAX_OPTIONS} options.`,
  sameOptions: 'Each option must be different.',
  notFound: 'Poll not found.',
  closed: 'This poll is closed: votes can no longer change.',
  oneChoice: 'This poll takes one choice only.',
  badOption: 'There is no such option in this poll.',
  sameOptionTwice: 'Choose each option at most once.',
  notYours: 'Only the person who asked can close this poll.',
  joinToVote: 'Join this channel to vote.',
} as const;

const optionText = z
  .string()
  .trim()
  .min(1, POLL_TEXT.optionRequired)
  .max(POLL_OPTION_MAX_LENGTH, POLL_TEXT.optionTooLong);

/** The poll a `chat_message` frame asks for (the composer's form checks the same). */
export const pollInputSchema = z.object({
  question: z
    .string()
    .trim()
    .min(1, POLL_TEXT.questionRequired)
    .max(POLL_QUESTION_MAX_LENGTH, POLL_TEXT.questionTooLong),
  options: z
    .array(optionText)
    .min(POLL_MIN_OPTIONS, POLL_TEXT.tooFewOptions)
    .max(POLL_MAX_OPTIONS, POLL_TEXT.tooManyOptions)
    // Blank options are told apart (optionRequired), not as the same twice.
    .refine((o) => {
      const filled = o.filter(Boolean).map((t) => t.toLowerCase());
      return new Set(filled).size === filled.length;
    }, POLL_TEXT.sameOptions),
  /** Several answers may be chosen. */
  multiple: z.boolean(),
  /** Nobody is ever told who voted for what. */
  anonymous: z.boolean(),
});
export type PollInput = z.infer<typeof pollInputSchema>;

/** One answer of a poll: how many chose it and, unless the poll is anonymous, who (user ids, first vote first). */
export const pollOptionSchema = z.object({
  text: z.string(),
  votes: z.number().int(),
  voters: z.array(z.number().int()).optional(),
});
export type PollOption = z.infer<typeof pollOptionSchema>;

/** A poll as one reader sees it (`Message.poll`, `poll_updated`). */
export const pollSchema = z.object({
  question: z.string(),
  options: z.array(pollOptionSchema),
  multiple: z.boolean(),
  anonymous: z.boolean(),
  /** The indexes of the options this reader chose, in order; empty when they have not voted. */
  my_votes: z.array(z.number().int()),
  /** Its author closed it: the counts stand as they are. */
  closed: z.boolean(),
  /** How many people voted (each counted once, whatever they chose): what shares are out of. */
  voter_count: z.number().int(),
});
export type Poll = z.infer<typeof pollSchema>;

/** A poll as everyone first sees it, before anyone voted (the server's new message, a client's pending one). */
export const pollFromInput = (input: PollInput): Poll => ({
  question: input.question,
  options: input.options.map((text) =>
    input.anonymous ? { text, votes: 0 } : { text, votes: 0, voters: [] },
  ),
  multiple: input.multiple,
  anonymous: input.anonymous,
  my_votes: [],
  closed: false,
  voter_count: 0,
});

/** PUT /api/chats/{chat_id}/messages/{message_id}/votes/: the reader's choices; none takes their vote back. */
export const pollVoteSchema = z.object({
  options: z
    .array(
      z
        .number()
        .int()
        .min(0, POLL_TEXT.badOption)
        .max(POLL_MAX_OPTIONS - 1, POLL_TEXT.badOption),
    )
    .max(POLL_MAX_OPTIONS, POLL_TEXT.sameOptionTwice),
});
export type PollVote = z.infer<typeof pollVoteSchema>;

/** How a poll stands for a message in a line (the chat list, a notification) when it has no text of its own. */
export const pollLine = (question: string) => `📊 ${question}`;

/** A message's text for a line: its body, else its poll's question ('' for neither). */
export const bodyOrPoll = (m: { body: string; poll?: { question: string } | null }): string =>
  m.body || (m.poll ? pollLine(m.poll.question) : '');

/** An option's share of the voters, as a whole percentage (0 when nobody voted). */
export const pollShare = (votes: number, voterCount: number): number =>
  voterCount > 0 ? Math.round((votes / voterCount) * 100) : 0;
