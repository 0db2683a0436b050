import {
  COMMAND_TEXT,
  type CommandRequest,
  type CommandResult,
  displayNameOf,
  groupUpdateSchema,
  isAdminRole,
  MUTE_ARGS,
  SHRUG,
} from '@parley/protocol';
import { BadRequestError, ForbiddenError } from '../../platform/errors';
import { parseBody } from '../../platform/validate';
import type { UsersService } from '../accounts/users.service';
import type { ChatsService } from '../chats/chats.service';
import type { GroupsService } from '../chats/groups.service';
import type { MessagesService } from '../messages/messages.service';

// The built-in commands, each the existing service call a screen makes: /me and /shrug send a message as the
// composer does; /topic is PATCH /api/chats/{id}/'s description, /invite the group's add-members, /leave its
// leave, /mute the chat's mute. Their rules (admins only, who may be added) are those services'.

export interface BuiltinDeps {
  chats: Pick<ChatsService, 'requireMember' | 'mute' | 'memberIds'>;
  groups: Pick<GroupsService, 'update' | 'addMembers' | 'leave'>;
  messages: Pick<MessagesService, 'send'>;
  users: Pick<UsersService, 'cards' | 'findActivated'>;
}

/** Who runs a command where: the caller, the chat, and the caller's membership of it. */
export interface CommandCaller {
  userId: number;
  chatId: string;
  isPrivate: boolean;
  role: string;
}

type Builtin = (deps: BuiltinDeps, caller: CommandCaller, req: CommandRequest) => Promise<CommandResult>;

const me = (text: string): CommandResult => ({ visibility: 'me', text });

async function send(deps: BuiltinDeps, caller: CommandCaller, req: CommandRequest, body: string) {
  const { message } = await deps.messages.send(caller.userId, caller.chatId, {
    body,
    client_id: req.client_id,
    ...(req.thread_root !== undefined ? { thread_root: req.thread_root } : {}),
  });
  return { visibility: 'chat', message } as const;
}

function inGroup(caller: CommandCaller, req: CommandRequest): void {
  if (caller.isPrivate) throw new BadRequestError(COMMAND_TEXT.groupsOnly(req.command));
}

/** Said before any work, so an admin-only command tells a member so whatever they typed after it. */
function asAdmin(caller: CommandCaller, req: CommandRequest): void {
  inGroup(caller, req);
  if (!isAdminRole(caller.role)) throw new ForbiddenError(COMMAND_TEXT.onlyAdmins(req.command));
}

export const BUILTINS: Record<string, Builtin> = {
  // An action line: the sender's name and the text, in italics (the formatting the room draws); its words stay
  // plain text, so search finds them.
  async me(deps, caller, req) {
    if (!req.args) throw new BadRequestError(COMMAND_TEXT.meUsage);
    const [card] = await deps.users.cards([caller.userId]);
    const name = card ? displayNameOf(card) : 'Someone';
    return send(deps, caller, req, `_${name} ${req.args}_`);
  },

  async shrug(deps, caller, req) {
    return send(deps, caller, req, req.args ? `${req.args} ${SHRUG}` : SHRUG);
  },

  async topic(deps, caller, req) {
    asAdmin(caller, req);
    if (!req.args) throw new BadRequestError(COMMAND_TEXT.topicUsage);
    const changes = parseBody(groupUpdateSchema, { description: req.args });
    await deps.groups.update(caller.userId, caller.chatId, changes, null);
    return me(COMMAND_TEXT.topicSet(changes.description ?? req.args));
  },

  async invite(deps, caller, req) {
    asAdmin(caller, req);
    const names = req.args
      .split(/[\s,]+/)
      .map((n) => n.replace(/^@/, ''))
      .filter(Boolean)
      .slice(0, 50);
    if (names.length === 0) throw new BadRequestError(COMMAND_TEXT.inviteUsage);
    const found = await deps.users.findActivated(names);
    if (found.length === 0) throw new BadRequestError(COMMAND_TEXT.nobody);
    const current = new Set(await deps.chats.memberIds(caller.chatId));
    const fresh = found.filter((u) => !current.has(u.id));
    if (fresh.length === 0) return me(COMMAND_TEXT.alreadyIn);
    await deps.groups.addMembers(
      caller.userId,
      caller.chatId,
      fresh.map((u) => u.id),
    );
    return me(
      COMMAND_TEXT.invited(fresh.map((u) => displayNameOf({ ...u, username: u.username ?? '' })).join(', ')),
    );
  },

  async leave(deps, caller, req) {
    inGroup(caller, req);
    await deps.groups.leave(caller.userId, caller.chatId);
    return me(COMMAND_TEXT.left);
  },

  async mute(deps, caller, req) {
    const arg = req.args.toLowerCase();
    if (arg && !(arg in MUTE_ARGS)) throw new BadRequestError(COMMAND_TEXT.muteUsage);
    const choice = arg ? MUTE_ARGS[arg as keyof typeof MUTE_ARGS] : null;
    await deps.chats.mute(
      caller.userId,
      caller.chatId,
      choice ? new Date(Date.now() + choice.ms).toISOString() : null,
    );
    return me(COMMAND_TEXT.muted(choice ? choice.label : 'until you unmute'));
  },
};
