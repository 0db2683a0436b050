import { POLL_MAX_OPTIONS, POLL_MIN_OPTIONS, type PollInput, pollInputSchema } from '@parley/protocol';
import { localText } from '../../../lib/i18n/server-texts';

// The composer's poll form: what is typed, and what is wrong with it, in the protocol's own words.

export interface PollDraft {
  question: string;
  options: string[];
  multiple: boolean;
  anonymous: boolean;
}

export const emptyPollDraft = (): PollDraft => ({
  question: '',
  options: Array.from({ length: POLL_MIN_OPTIONS }, () => ''),
  multiple: false,
  anonymous: false,
});

export interface PollErrors {
  question: string | null;
  /** One per option field. */
  options: (string | null)[];
  /** What is wrong with the options as a whole (too few, the same twice). */
  list: string | null;
}

/** The poll to send, or what to say under each field. */
export function checkPoll(draft: PollDraft): { poll: PollInput } | { errors: PollErrors } {
  const result = pollInputSchema.safeParse(draft);
  if (result.success) return { poll: result.data };
  const errors: PollErrors = { question: null, options: draft.options.map(() => null), list: null };
  for (const issue of result.error.issues) {
    const [field, index] = issue.path;
    const message = localText(issue.message);
    if (field === 'question') errors.question ??= message;
    else if (field === 'options' && typeof index === 'number') errors.options[index] ??= message;
    else errors.list ??= message;
  }
  return { errors };
}

export const canAddOption = (draft: PollDraft) => draft.options.length < POLL_MAX_OPTIONS;
export const canRemoveOption = (draft: PollDraft) => draft.options.length > POLL_MIN_OPTIONS;
