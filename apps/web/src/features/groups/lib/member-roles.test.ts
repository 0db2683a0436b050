import { DELETED_USERNAME } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { roleActions, roleOf } from './member-roles';

const ME = 1;
const member = (id: number | null, role: 'owner' | 'admin' | 'member', username = `user${id}`) => ({
  id,
  role,
  username,
});

describe('roleActions', () => {
  it('lets the owner promote, demote and hand the group over', () => {
    expect(roleActions('owner', ME, member(2, 'member'))).toEqual(['promote', 'transfer']);
    expect(roleActions('owner', ME, member(3, 'admin'))).toEqual(['demote', 'transfer']);
  });

  it('lets an admin promote and demote, but never touch the owner or hand the group over', () => {
    expect(roleActions('admin', ME, member(2, 'member'))).toEqual(['promote']);
    expect(roleActions('admin', ME, member(3, 'admin'))).toEqual(['demote']);
    expect(roleActions('admin', ME, member(4, 'owner'))).toEqual([]);
  });

  it('offers a member nothing, and nobody anything on themselves or a deleted account', () => {
    expect(roleActions('member', ME, member(2, 'member'))).toEqual([]);
    expect(roleActions(null, ME, member(2, 'member'))).toEqual([]);
    expect(roleActions('owner', ME, member(ME, 'owner'))).toEqual([]);
    expect(roleActions('owner', ME, member(null, 'member', DELETED_USERNAME))).toEqual([]);
  });
});

describe('roleOf', () => {
  it("finds the viewer's role, or null outside the group", () => {
    const members = [member(1, 'owner'), member(2, 'admin')];
    expect(roleOf(members, 2)).toBe('admin');
    expect(roleOf(members, 9)).toBeNull();
  });
});
