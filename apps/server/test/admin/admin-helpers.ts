import { expect } from 'vitest';
import type { SignedUp, TestApp } from '../helpers/test-app';

/**
 * A fresh server's people for the admin tests: the first account (the site admin, as on any fresh server) and
 * `others` ordinary ones.
 */
export async function adminAndPeople(
  t: TestApp,
  others = 1,
): Promise<{ admin: SignedUp; people: SignedUp[] }> {
  const admin = await t.signUpAndVerify({ first_name: 'Root' });
  expect(admin.user.is_site_admin).toBe(true);
  const people: SignedUp[] = [];
  for (let i = 0; i < others; i++) people.push(await t.signUpAndVerify());
  return { admin, people };
}

/** The audit events of a type (newest first), as the admin API shows them. */
export async function auditOf(t: TestApp, token: string, type: string) {
  const res = await t.get(`/api/admin/audit/?type=${encodeURIComponent(type)}`, token);
  expect(res.status, res.text).toBe(200);
  return res.body.results as {
    type: string;
    actor: { id: number; username: string | null } | null;
    target: { id: number; username: string | null } | null;
    at: string;
    detail: Record<string, unknown>;
  }[];
}
