import {
  type BotCommandAnswer,
  type BotCommandCall,
  botCommandAnswerSchema,
  COMMAND_TEXT,
  COMMAND_TIMEOUT_MS,
} from '@parley/protocol';
import { HttpError } from '../../platform/errors';
import { anyAddress, GuardedFetchError, guardedPost } from '../../platform/guarded-fetch';
import { isPublicAddress } from '../../platform/public-address';
import type { BotsService } from '../bots/bots.service';

// One call of a bot's command: the JSON POSTed to its address, signed as its events are, through guardedPost
// (public addresses only, checked as resolved, no redirect followed), and its answer read within the deadline.

/** 502: the bot answered, but not with something a command can show (a non-2xx, or not its JSON). */
export class CommandFailedError extends HttpError {
  constructor(command: string) {
    super(502, { detail: COMMAND_TEXT.badAnswer(command) });
    this.name = 'CommandFailedError';
  }
}

/** A bot's answer is a short JSON document. */
const ANSWER_MAX_BYTES = 64 * 1024;
const USER_AGENT = 'Mozilla/5.0 (compatible; ParleyCommands/1.0)';

export interface BotCommandTarget {
  botId: number;
  url: string;
}

/**
 * POSTs the call and reads the answer; null when the bot did not answer in time. A CommandFailedError when
 * it answered with anything else than a 2xx carrying `{text, visibility?}`, or could not be reached.
 */
export async function callBotCommand(
  target: BotCommandTarget,
  call: BotCommandCall,
  deps: { bots: Pick<BotsService, 'signedHeaders'>; allowPrivateHosts: boolean; timeoutMs?: number },
): Promise<BotCommandAnswer | null> {
  const body = JSON.stringify(call);
  let status: number;
  let raw: Buffer;
  try {
    const res = await guardedPost(target.url, body, {
      allowAddress: deps.allowPrivateHosts ? anyAddress : isPublicAddress,
      httpToo: deps.allowPrivateHosts,
      timeoutMs: deps.timeoutMs ?? COMMAND_TIMEOUT_MS,
      maxBytes: ANSWER_MAX_BYTES,
      userAgent: USER_AGENT,
      headers: await deps.bots.signedHeaders(target.botId, body),
    });
    status = res.status;
    raw = res.body;
  } catch (err) {
    if (err instanceof GuardedFetchError && err.reason === 'timed out') return null;
    throw new CommandFailedError(call.command);
  }
  if (status < 200 || status >= 300) throw new CommandFailedError(call.command);
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new CommandFailedError(call.command);
  }
  const answer = botCommandAnswerSchema.safeParse(json);
  if (!answer.success) throw new CommandFailedError(call.command);
  return answer.data;
}
