import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { bodyOrPoll, type PushPayload, type PushSubscribePayload, previewText } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { Session } from '../../platform/auth';
import { FieldsError } from '../../platform/errors';
import type { DomainEventMap, DomainEvents } from '../../platform/events';
import { jobLog } from '../../platform/job-log';
import type { Metrics } from '../../platform/metrics';
import { publicLookup, resolvesToPublic } from '../../platform/public-address';
import type { RoomPresence } from '../../platform/room-presence';
import { mailLocale, textsIn } from '../../platform/translations';
import * as repo from './notifications.repo';
import { type VapidKeys, vapidSubject } from './vapid';

interface Deps {
  config: Config;
  db: Db;
  events: DomainEvents;
  rooms: RoomPresence;
  log: FastifyBaseLogger;
  vapid: VapidKeys;
  metrics?: Pick<Metrics, 'pushSent'>;
}

/** How long a push service keeps trying to reach a browser that is off. */
const PUSH_TTL_SECONDS = 24 * 60 * 60;
const PUSH_TIMEOUT_MS = 10_000;

/** Only the host of an endpoint is ever logged: the path is the browser's capability. */
const hostOf = (endpoint: string) => {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'invalid';
  }
};

/**
 * Web Push: browsers' subscriptions, and a notification to every member who is away from the room, has Push
 * Notifications on and a subscribed browser, whenever a person writes. Sending never holds up the message.
 */
export class PushService {
  private readonly vapidDetails;
  readonly publicKey: string;

  constructor(private readonly deps: Deps) {
    this.publicKey = deps.vapid.publicKey;
    this.vapidDetails = {
      subject: vapidSubject(deps.config),
      publicKey: deps.vapid.publicKey,
      privateKey: deps.vapid.privateKey,
    };
    deps.events.on('message.published', (event) => {
      // A resend was announced when it was first stored.
      if (event.resend) return;
      // Its lines carry a job id, and the id of the socket request that sent the message; the log is made only
      // for a fan-out that pushes (or fails), not for every message.
      const log = () => jobLog(this.deps.log, 'web push fan-out', event.requestId);
      void this.notifyAway(event, log).catch((err) => log().error({ err }, 'web push fan-out failed'));
    });
  }

  async subscribe(session: Session, body: PushSubscribePayload): Promise<void> {
    await this.assertPushServiceAddress(body.endpoint);
    await repo.upsertSubscription(this.deps.db, {
      user_id: session.userId,
      session_id: session.sessionId,
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      created_at: new Date().toISOString(),
    });
  }

  /** Removes the caller's subscription; one already gone (or someone else's) is not an error. */
  async unsubscribe(userId: number, endpoint: string): Promise<void> {
    await repo.deleteSubscription(this.deps.db, userId, endpoint);
  }

  /**
   * The server POSTs to whatever address a browser registers, so only push-service-like addresses are kept:
   * https to a name that resolves to public addresses only (never loopback, private, link-local or metadata
   * ones), in every mode. Deliveries check again as they connect (deliver). PUSH_ALLOW_PRIVATE_ENDPOINTS lets
   * tests use a local http push service.
   */
  private async assertPushServiceAddress(endpoint: string): Promise<void> {
    const url = new URL(endpoint);
    const local = this.deps.config.pushAllowPrivateEndpoints;
    const schemeOk = url.protocol === 'https:' || (local && url.protocol === 'http:');
    const hostOk = local || (await resolvesToPublic(url.hostname));
    if (!schemeOk || !hostOk || url.username || url.password) {
      throw new FieldsError({ endpoint: ['This is not a push service address.'] });
    }
  }

  private async notifyAway(
    { chatId, isPrivate, message, memberIds, mutedIds, blockedIds }: DomainEventMap['message.published'],
    jobLogOf: () => FastifyBaseLogger,
  ) {
    if (message.kind !== 'user') return;
    const absent = await this.deps.rooms.absentAmong(chatId, memberIds);
    if (absent.length === 0) return;
    // A muted chat pushes nothing, unless the message mentions the person.
    // Nor does a message from someone a block stands between with them.
    const muted = new Set(mutedIds);
    const blocked = new Set(blockedIds);
    const away = absent.filter(
      (id) => id !== message.sender && !blocked.has(id) && (!muted.has(id) || message.mentions.includes(id)),
    );
    const targets = await repo.pushTargets(this.deps.db, away, new Date().toISOString());
    if (targets.length === 0) return;
    const sender = message.sender_name || message.sender_username;
    const text = bodyOrPoll(message);
    const mentioned = new Set(message.mentions);
    // Each payload is written in its reader's language (as their mail is), once per language and kind.
    const payloads = new Map<string, string>();
    const payloadFor = (target: repo.PushTarget) => {
      const locale = mailLocale(target);
      // Someone the message mentions is told so in the title.
      const mention = mentioned.has(target.user_id);
      const key = `${locale}:${mention}`;
      let json = payloads.get(key);
      if (json === undefined) {
        const t = textsIn(locale);
        const payload: PushPayload = {
          title: mention ? t('general.push.mentioned', { name: sender }) : sender,
          body: text ? previewText(text) : message.files.length > 0 ? t('general.push.sentFile') : '',
          chatroom_id: chatId,
          // A thread reply opens its thread.
          url: `/${isPrivate ? 'chats' : 'groups'}/${encodeURIComponent(chatId)}${message.thread_root ? `/thread/${message.thread_root}` : ''}`,
          tag: chatId,
          icon: message.sender_avatar,
        };
        json = JSON.stringify(payload);
        payloads.set(key, json);
      }
      return json;
    };
    const log = jobLogOf();
    await Promise.all(targets.map((target) => this.deliver(target, payloadFor(target), chatId, log)));
  }

  /**
   * One encrypted POST to the browser's push service (RFC 8030/8291, VAPID RFC 8292). web-push builds the
   * request; fetch sends it, so any push service address works, https or (in tests) http.
   */
  private async deliver(
    target: repo.PushTarget,
    payload: string,
    chatId: string,
    log: FastifyBaseLogger,
  ): Promise<void> {
    const pushHost = hostOf(target.endpoint);
    try {
      const details = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        {
          vapidDetails: this.vapidDetails,
          TTL: PUSH_TTL_SECONDS,
          urgency: 'high',
          // A newer message of the same chat replaces one the push service still holds for an offline browser.
          topic: /^[A-Za-z0-9_-]{1,32}$/.test(chatId) ? chatId : undefined,
        },
      );
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers)) {
        if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
      }
      const status = await this.post(details.endpoint, details.method, headers, details.body);
      this.deps.metrics?.pushSent(
        status >= 200 && status < 300 ? 'sent' : status === 404 || status === 410 ? 'gone' : 'failed',
      );
      if (status === 404 || status === 410) {
        // The browser unsubscribed or the subscription expired: it will never accept another push.
        await repo.deleteSubscriptionByEndpoint(this.deps.db, target.endpoint);
        log.info({ pushHost, status }, 'push subscription gone; removed');
      } else if (status < 200 || status >= 300) {
        log.warn({ pushHost, status }, 'push service refused a notification');
      }
    } catch (err) {
      this.deps.metrics?.pushSent('failed');
      // The error's text may carry the endpoint; its name and code say enough.
      const e = err as Error & { code?: string; cause?: { code?: string } };
      log.warn({ pushHost, error: e.name, code: e.code ?? e.cause?.code }, 'web push delivery failed');
    }
  }

  /**
   * One request to a push service; its status. The connection resolves the host itself through publicLookup, so
   * an address checked at subscription cannot be turned to an internal one later (DNS rebinding). No redirects.
   */
  private post(
    endpoint: string,
    method: string,
    headers: Record<string, string>,
    body: Buffer,
  ): Promise<number> {
    const url = new URL(endpoint);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        url,
        {
          method,
          headers,
          timeout: PUSH_TIMEOUT_MS,
          ...(this.deps.config.pushAllowPrivateEndpoints ? {} : { lookup: publicLookup }),
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('timeout', () => req.destroy(new Error('push service timed out')));
      req.on('error', reject);
      req.end(body);
    });
  }
}
