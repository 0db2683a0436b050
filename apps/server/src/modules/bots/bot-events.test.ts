import type { Message } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { DatabaseUnavailableError } from '../../platform/errors';
import { DomainEvents } from '../../platform/events';
import { BotEvents } from './bot-events';

// Which bots hear of a message is read from the database after it is stored: while the database is away that
// lookup is tried again on the delivery schedule (the outage is the database layer's to tell), and any other
// failure is told once.

const message = { id: 7, sender: 1, kind: 'text', body: 'hi' } as unknown as Message;

function setUp(eventTargets: () => Promise<{ botId: number; url: string }[]>) {
  const events = new DomainEvents();
  const log = { warn: vi.fn(), debug: vi.fn() } as unknown as FastifyBaseLogger & {
    warn: ReturnType<typeof vi.fn>;
  };
  const lookUps = vi.fn(eventTargets);
  const botEvents = new BotEvents({
    events,
    log,
    bots: { eventTargets: lookUps, signedHeaders: vi.fn(), recordDelivery: vi.fn() },
    options: { retryDelaysMs: [1, 1, 1], timeoutMs: 1000, allowPrivateHosts: true },
  });
  const publish = () =>
    events.emit('message.published', {
      chatId: 'c',
      isPrivate: false,
      message,
      clientId: null,
      memberIds: [1, 2],
      resend: false,
    });
  return { botEvents, log, lookUps, publish };
}

describe('bot events while the database is away', () => {
  it('look the bots up again until the database answers, telling nothing', async () => {
    let calls = 0;
    const { botEvents, log, lookUps, publish } = setUp(async () => {
      calls += 1;
      if (calls < 3) throw new DatabaseUnavailableError(new Error('read ECONNRESET'));
      return [];
    });
    publish();
    await vi.waitFor(() => expect(lookUps).toHaveBeenCalledTimes(3), { timeout: 5000 });
    expect(lookUps).toHaveBeenCalledWith([2]);
    expect(log.warn).not.toHaveBeenCalled();
    await botEvents.stop();
  });

  it('give up after the last retry, and tell any other failure at once', async () => {
    const away = setUp(async () => {
      throw new DatabaseUnavailableError();
    });
    away.publish();
    await vi.waitFor(() => expect(away.log.warn).toHaveBeenCalledTimes(1), { timeout: 5000 });
    expect(away.lookUps).toHaveBeenCalledTimes(4);
    await away.botEvents.stop();

    const broken = setUp(async () => {
      throw new Error('no such column');
    });
    broken.publish();
    await vi.waitFor(() => expect(broken.log.warn).toHaveBeenCalledTimes(1), { timeout: 5000 });
    expect(broken.lookUps).toHaveBeenCalledTimes(1);
    await broken.botEvents.stop();
  });
});
