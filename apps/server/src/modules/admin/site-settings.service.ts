import { randomBytes } from 'node:crypto';
import {
  AUDIT,
  type BotCreators,
  INVITE_INVALID_MESSAGE,
  type InviteCreate,
  type InviteLink,
  type PublicSite,
  SIGNUP_DOMAIN_MESSAGE,
  SIGNUPS_CLOSED_MESSAGE,
  type SignInProvider,
  type SignupMode,
  type SiteSettings,
  type SiteSettingsUpdate,
} from '@parley/protocol';
import type { Db } from '../../db/database';
import { FieldsError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { SignupGate } from '../accounts/sign-up.service';
import type { AuditService } from '../audit/audit.service';
import * as repo from './admin.repo';

const DAY = 24 * 3600_000;

const parseDomains = (text: string): string[] => {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.filter((d): d is string => typeof d === 'string') : [];
  } catch {
    return [];
  }
};

interface Deps {
  db: Db;
  audit: AuditService;
  /** The web app's origin for invite URLs ('' for a relative link). */
  publicUrl: string | null;
  /** The other ways to sign in (single sign-on), and whether passwords still sign people in and up. */
  signIn: { providers: SignInProvider[]; passwordSignIn: boolean };
}

/**
 * Server settings: who may sign up (everyone, nobody, or addresses at some domains) and the invite links that
 * let a person sign up all the same. Registration asks through the SignupGate port, inside its transaction.
 */
export class SiteSettingsService implements SignupGate {
  constructor(private readonly deps: Deps) {}

  async admit(trx: Db, email: string, invite: string | null): Promise<void> {
    const row = await repo.readSettings(trx);
    if (row.signups === 'open') return;
    const domains = parseDomains(row.domains);
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    if (row.signups === 'domains' && domains.includes(domain)) return;
    if (invite) {
      if (await repo.useInvite(trx, invite, new Date().toISOString())) return;
      throw new ForbiddenError(INVITE_INVALID_MESSAGE);
    }
    if (row.signups === 'domains')
      throw new FieldsError({ email: [SIGNUP_DOMAIN_MESSAGE + domains.join(', ')] });
    throw new ForbiddenError(SIGNUPS_CLOSED_MESSAGE);
  }

  /** Whether only site admins may create bots (the bots module asks, as its BotCreatorsPolicy). */
  async botsForAdminsOnly(): Promise<boolean> {
    return (await repo.readSettings(this.deps.db)).bot_creators === 'admins';
  }

  /** What the auth screen shows before anyone signs up or in (GET /api/site/, public). */
  async publicView(): Promise<PublicSite> {
    const row = await repo.readSettings(this.deps.db);
    const signups = row.signups as SignupMode;
    return {
      signups,
      domains: signups === 'domains' ? parseDomains(row.domains) : [],
      invites: signups !== 'open' && (await repo.anyUsableInvite(this.deps.db, new Date().toISOString())),
      sign_in_providers: this.deps.signIn.providers,
      password_sign_in: this.deps.signIn.passwordSignIn,
    };
  }

  async get(): Promise<SiteSettings> {
    const row = await repo.readSettings(this.deps.db);
    return {
      signups: row.signups as SignupMode,
      domains: parseDomains(row.domains),
      bot_creators: row.bot_creators as BotCreators,
      invites: await this.invites(),
    };
  }

  async update(actorId: number, input: SiteSettingsUpdate & { domains: string[]; note: string }) {
    const domains = [...new Set(input.domains)];
    await this.deps.db.transaction().execute(async (trx) => {
      const botCreators = input.bot_creators ?? ((await repo.readSettings(trx)).bot_creators as BotCreators);
      await repo.writeSettings(trx, {
        signups: input.signups,
        domains: JSON.stringify(domains),
        bot_creators: botCreators,
        updated_at: new Date().toISOString(),
      });
      await this.deps.audit.record(
        {
          type: AUDIT.settingsChanged,
          actor_id: actorId,
          detail: {
            signups: input.signups,
            domains,
            bot_creators: botCreators,
            ...(input.note ? { note: input.note } : {}),
          },
        },
        trx,
      );
    });
    return this.get();
  }

  private async invites(): Promise<InviteLink[]> {
    const now = new Date().toISOString();
    const base = this.deps.publicUrl ? this.deps.publicUrl.replace(/\/+$/, '') : '';
    return (await repo.listInvites(this.deps.db)).map((r) => ({
      id: r.id,
      token: r.token,
      url: `${base}/register?invite=${encodeURIComponent(r.token)}`,
      created_at: r.created_at,
      created_by:
        r.created_by === null ? null : { id: r.created_by, username: r.created_by_username ?? null },
      expires_at: r.expires_at,
      max_uses: r.max_uses,
      uses: r.uses,
      revoked_at: r.revoked_at,
      usable:
        r.revoked_at === null &&
        (r.expires_at === null || r.expires_at > now) &&
        (r.max_uses === null || r.uses < r.max_uses),
    }));
  }

  async createInvite(actorId: number, input: Required<Pick<InviteCreate, 'expires_in_days' | 'max_uses'>>) {
    const now = Date.now();
    const token = randomBytes(18).toString('base64url');
    await this.deps.db.transaction().execute(async (trx) => {
      const id = await repo.insertInvite(trx, {
        token,
        created_by: actorId,
        created_at: new Date(now).toISOString(),
        expires_at: input.expires_in_days ? new Date(now + input.expires_in_days * DAY).toISOString() : null,
        max_uses: input.max_uses ?? null,
      });
      await this.deps.audit.record(
        {
          type: AUDIT.inviteCreated,
          actor_id: actorId,
          detail: { invite_id: id, expires_in_days: input.expires_in_days, max_uses: input.max_uses },
        },
        trx,
      );
    });
    const made = (await this.invites()).find((i) => i.token === token);
    if (!made) throw new NotFoundError();
    return made;
  }

  async revokeInvite(actorId: number, id: number, note = ''): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.revokeInvite(trx, id, new Date().toISOString()))) throw new NotFoundError();
      await this.deps.audit.record(
        {
          type: AUDIT.inviteRevoked,
          actor_id: actorId,
          detail: { invite_id: id, ...(note ? { note } : {}) },
        },
        trx,
      );
    });
  }
}
