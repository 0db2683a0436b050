import type { Db } from '../../src/db/database';
import { ApiTokensService } from '../../src/modules/accounts/api-tokens.service';
import {
  SESSION_TIMINGS,
  SessionService,
  type SessionTimings,
} from '../../src/modules/accounts/session.service';
import { DomainEvents } from '../../src/platform/events';
import type { TestApp } from './test-app';

/**
 * A SessionService of a test's own on the app's database (or `db`), recording in the app's audit log: its own
 * events unless given, and these timings in place of the production ones.
 */
export function sessionServiceOf(
  t: TestApp,
  timings: Partial<SessionTimings> = {},
  events = new DomainEvents(),
  db: Db = t.ctx.db,
): SessionService {
  return new SessionService({
    db,
    events,
    audit: t.ctx.audit,
    timings: { ...SESSION_TIMINGS, ...timings },
    tokens: new ApiTokensService({ db, events, audit: t.ctx.audit }),
  });
}
