import { z } from 'zod';
import { dbIdSchema, messageSchema } from './chat';

// Safety: blocking people, muting chats and reporting messages or people. Texts, payloads and answers
// both sides use; the operator console reads reports with the schemas at the end.

export const SAFETY_TEXT = {
  /** The blocked person's refusal: it says nothing about a block. */
  cannotMessage: 'You cannot message this person.',
  /** The blocker's own refusal when writing to someone they blocked. */
  unblockToMessage: 'Unblock this person to message them.',
  cannotBlockSelf: 'You cannot block yourself.',
  blocked: 'Blocked.',
  unblocked: 'Unblocked.',
  blockedMessage: 'Blocked message',
  showBlocked: 'show',
  noneBlocked: 'You have not blocked anyone.',
  muteInPast: 'Choose a time in the future.',
  reported: 'Thank you. Your report was sent to the operators of this server.',
  alreadyReported: 'You have already reported this.',
  tooManyReports: 'You have sent too many reports. Please try again later.',
  cannotReportSelf: 'You cannot report yourself.',
  reportTarget: 'Report a message (message_id) or a person (username), one of them.',
  reportNotFound: 'Report not found.',
  alreadyResolved: 'This report is already resolved.',
} as const;

// ——— Block ———

/** GET /api/users/blocked/: the people the caller blocked, newest first. */
export const blockedPersonSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  blocked_at: z.string(),
});
export type BlockedPerson = z.infer<typeof blockedPersonSchema>;
export const blockedListSchema = z.object({ results: z.array(blockedPersonSchema) });
export type BlockedList = z.infer<typeof blockedListSchema>;

/** POST and DELETE /api/users/{username}/block/ answer with where things now stand. */
export const blockStateSchema = z.object({ blocked: z.boolean(), detail: z.string() });
export type BlockState = z.infer<typeof blockStateSchema>;

// ——— Mute ———

/** PUT /api/chats/{chat_id}/mute/: until a time in the future, or `null` for always. */
export const muteSchema = z.object({
  until: z.iso.datetime({ offset: true, error: 'Give a date and time (ISO 8601) or null.' }).nullable(),
});
export type MutePayload = z.infer<typeof muteSchema>;

/** A chat's mute state for the reader (chat list items and the chat detail carry the same two fields). */
export const muteStateSchema = z.object({
  muted: z.boolean(),
  /** When the mute ends; null when muted always (or not muted). */
  muted_until: z.string().nullable(),
});
export type MuteState = z.infer<typeof muteStateSchema>;

const HOUR_MS = 60 * 60 * 1000;
/** The choices the chat settings offer; `ms: null` is always. */
export const MUTE_CHOICES = [
  { label: '1 hour', ms: HOUR_MS },
  { label: '8 hours', ms: 8 * HOUR_MS },
  { label: '1 week', ms: 7 * 24 * HOUR_MS },
  { label: 'Always', ms: null },
] as const;

/** Whether a chat is muted at `now` by its mute state. */
export const isMutedNow = (state: Partial<MuteState> | undefined, now = Date.now()): boolean =>
  !!state?.muted &&
  (state.muted_until === null || state.muted_until === undefined || Date.parse(state.muted_until) > now);

// ——— Report ———

export const REPORT_REASONS = ['spam', 'harassment', 'inappropriate', 'other'] as const;
export const reportReasonSchema = z.enum(REPORT_REASONS, { error: 'Choose a reason.' });
export type ReportReason = z.infer<typeof reportReasonSchema>;
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment or bullying',
  inappropriate: 'Inappropriate content',
  other: 'Something else',
};
export const REPORT_NOTE_MAX_LENGTH = 1000;

/** POST /api/reports/: a message (by id) or a person (by username), a reason and an optional note. */
export const reportCreateSchema = z
  .object({
    message_id: dbIdSchema.optional(),
    username: z.string().trim().min(1).max(150).optional(),
    reason: reportReasonSchema,
    note: z
      .string()
      .trim()
      .max(REPORT_NOTE_MAX_LENGTH, `The note must be at most ${REPORT_NOTE_MAX_LENGTH} characters.`)
      .optional()
      .default(''),
  })
  .refine((r) => (r.message_id === undefined) !== (r.username === undefined), SAFETY_TEXT.reportTarget);
export type ReportCreatePayload = z.input<typeof reportCreateSchema>;

/** The reporter's confirmation. */
export const reportCreatedSchema = z.object({ id: z.number().int(), detail: z.string() });
export type ReportCreated = z.infer<typeof reportCreatedSchema>;

/** What an operator may do about a report (the admin API acts, then records it on the report). */
export const REPORT_ACTIONS = ['dismiss', 'delete_message', 'deactivate_user'] as const;
export const reportActionSchema = z.enum(REPORT_ACTIONS, { error: 'Choose an action.' });
export type ReportAction = z.infer<typeof reportActionSchema>;
export const reportResolveSchema = z.object({
  action: reportActionSchema,
  note: z.string().trim().max(REPORT_NOTE_MAX_LENGTH).optional().default(''),
});
export type ReportResolvePayload = z.input<typeof reportResolveSchema>;

export const REPORT_STATUSES = ['open', 'resolved'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

const personRefSchema = z.object({ id: z.number().int(), username: z.string(), name: z.string() }).nullable();

/** A report as the operator console shows it: who, about whom, the message in its context, and the outcome. */
export const reportSchema = z.object({
  id: z.number().int(),
  reason: reportReasonSchema,
  note: z.string(),
  status: z.enum(REPORT_STATUSES),
  created_at: z.string(),
  /** null once the reporter's account is deleted. */
  reporter: personRefSchema,
  /** The person reported: the message's author, or the person named. null once their account is deleted. */
  target: personRefSchema,
  /** The reported message's id (null for a report about a person, or once the message is gone). */
  message_id: z.number().int().nullable(),
  /** The text as it read when it was reported (kept even if it is edited or deleted later). */
  message_body: z.string().nullable(),
  /** The chat's public id, for a message report. */
  chat_id: z.string().nullable(),
  /** The reported message with a few messages before and after it, as they read now (detail only). */
  context: z.array(messageSchema).optional(),
  resolution: z
    .object({
      action: reportActionSchema,
      note: z.string(),
      resolved_at: z.string(),
      resolved_by: personRefSchema,
    })
    .nullable(),
});
export type Report = z.infer<typeof reportSchema>;
export const reportListSchema = z.object({ results: z.array(reportSchema), count: z.number().int() });
export type ReportList = z.infer<typeof reportListSchema>;
/** GET /api/admin/reports/: open or resolved, a page at a time. */
export const reportsQuerySchema = z.object({
  status: z.enum(REPORT_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});
