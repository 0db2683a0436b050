import type { NotificationFrame, ServerFrame } from '@parley/protocol';
import type { Bus, BusMessage } from '../../platform/bus';
import type { BlocksService } from '../safety/blocks.service';
import { topics } from './hub';

export interface FramePublisherDeps {
  bus: Bus;
  /** People a block stands between see nothing of each other's presence, typing or reading. */
  blocks: Pick<BlocksService, 'relatedTo' | 'relationsAmong'>;
}

/** Frames onto the bus, to a room or to people: the one place that knows whom a block hides a frame from. */
export class FramePublisher {
  constructor(private readonly deps: FramePublisherDeps) {}

  toRoom(chatId: string, frame: ServerFrame, exceptUserId?: number): Promise<void> {
    return this.deps.bus.publish(topics.room(chatId), { data: JSON.stringify(frame), exceptUserId });
  }

  /** A frame for the members in a room alone (receipts): nobody watching a public group from outside gets it. */
  toMembersInRoom(chatId: string, frame: ServerFrame): Promise<void> {
    return this.deps.bus.publish(topics.room(chatId), { data: JSON.stringify(frame), audience: 'members' });
  }

  /** A frame for those watching a public group from outside alone (its detail without anyone's presence). */
  toWatchersOfRoom(chatId: string, frame: ServerFrame): Promise<void> {
    return this.deps.bus.publish(topics.room(chatId), { data: JSON.stringify(frame), audience: 'watchers' });
  }

  /**
   * A frame about one person (their typing, their reading) to the members in a room: people a block stands
   * between with them do not get it; `exceptUserId` skips that person's own sockets too.
   */
  async toRoomAbout(chatId: string, frame: ServerFrame, aboutUserId: number, exceptUserId?: number) {
    const hidden = await this.deps.blocks.relatedTo(aboutUserId);
    await this.deps.bus.publish(topics.room(chatId), {
      data: JSON.stringify(frame),
      exceptUserId,
      audience: 'members',
      ...(hidden.size > 0 ? { exceptUserIds: [...hidden] } : {}),
    });
  }

  /**
   * Frames that differ by who reads them, for the members in a room: `framesFor(hidden)` builds them for a
   * reader who must not see the people in `hidden`. Everyone among `viewers` without a block among them shares
   * one copy; each of the others gets their own, addressed to them alone.
   */
  async toRoomPerViewer(
    chatId: string,
    viewers: number[],
    framesFor: (hidden: ReadonlySet<number>) => ServerFrame[],
  ): Promise<void> {
    const relations = await this.deps.blocks.relationsAmong(viewers);
    const room = topics.room(chatId);
    const send = (frames: ServerFrame[], to: Partial<BusMessage>) =>
      frames.map((frame) =>
        this.deps.bus.publish(room, { data: JSON.stringify(frame), audience: 'members', ...to }),
      );
    await Promise.all([
      ...send(framesFor(new Set()), relations.size > 0 ? { exceptUserIds: [...relations.keys()] } : {}),
      ...[...relations].flatMap(([viewer, hidden]) => send(framesFor(hidden), { onlyUserIds: [viewer] })),
    ]);
  }

  /**
   * A frame to a room that some people get in their own version (`variants`: their choices in a poll); everyone
   * else, watchers included, gets `frame`. One bus message carries them all.
   */
  toRoomVariants(
    chatId: string,
    frame: ServerFrame,
    variants: { frame: ServerFrame; userIds: number[] }[],
  ): Promise<void> {
    return this.deps.bus.publish(topics.room(chatId), {
      data: JSON.stringify(frame),
      ...(variants.length > 0
        ? { variants: variants.map((v) => ({ data: JSON.stringify(v.frame), userIds: v.userIds })) }
        : {}),
    });
  }

  /** A frame already serialised, to one person's sockets. */
  toUser(userId: number, data: string): Promise<void> {
    return this.deps.bus.publish(topics.user(userId), { data });
  }

  /** The same notification frame to each of these people, serialised once. */
  async toUsers(userIds: number[], frame: NotificationFrame): Promise<void> {
    const data = JSON.stringify(frame);
    await Promise.all(userIds.map((id) => this.toUser(id, data)));
  }

  /** Closes every socket of a room (`close` carries the code), or of a person (any of the control fields). */
  close(topic: string, close: NonNullable<BusMessage['close']>): Promise<void> {
    return this.deps.bus.publish(topic, { data: '', close });
  }
}
