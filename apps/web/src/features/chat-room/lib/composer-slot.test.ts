import type { ChatMember } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { composerSlot } from './composer-slot';

const member = (id: number, role: ChatMember['role']) => ({ id, role }) as ChatMember;
const members = [member(1, 'owner'), member(2, 'admin'), member(3, 'member')];

describe('what stands in the composer’s place', () => {
  it('is the Join bar for someone previewing a public group, whatever its posting', () => {
    expect(composerSlot({ is_member: false, posting: 'everyone', members }, 9)).toBe('join');
    expect(composerSlot({ is_member: false, posting: 'admins', members }, 9)).toBe('join');
  });

  it('is the composer for every member where everyone posts (is_member absent counts as a member)', () => {
    expect(composerSlot({ is_member: true, posting: 'everyone', members }, 3)).toBe('composer');
    expect(composerSlot({ posting: 'everyone', members }, 3)).toBe('composer');
  });

  it('in an announcement channel, is the composer for the owner and admins, the admins-only line for others', () => {
    const chat = { is_member: true, posting: 'admins' as const, members };
    expect(composerSlot(chat, 1)).toBe('composer');
    expect(composerSlot(chat, 2)).toBe('composer');
    expect(composerSlot(chat, 3)).toBe('admins-only');
    expect(composerSlot(chat, 9)).toBe('admins-only');
  });
});
