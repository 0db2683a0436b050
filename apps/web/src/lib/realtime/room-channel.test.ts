import type { ServerFrame } from '@parley/protocol';
import { describe, expect, it, vi } from 'vitest';
import { roomChannel } from './room-channel';

const typing: ServerFrame = { type: 'typing', user_id: 2, username: 'grace', is_typing: true };

describe('roomChannel', () => {
  it("hands a chat's frames, opens and states to its listeners alone, until they stop", () => {
    const a = { onFrame: vi.fn(), onOpen: vi.fn(), onStatus: vi.fn() };
    const other = { onFrame: vi.fn() };
    const stop = roomChannel.listen('c1', a);
    const stopOther = roomChannel.listen('c2', other);
    roomChannel.frame('c1', typing);
    roomChannel.opened('c1');
    roomChannel.status('c1', 'reconnecting');
    expect(a.onFrame).toHaveBeenCalledWith(typing);
    expect(a.onOpen).toHaveBeenCalledOnce();
    expect(a.onStatus).toHaveBeenCalledWith('reconnecting');
    expect(other.onFrame).not.toHaveBeenCalled();
    stop();
    roomChannel.frame('c1', typing);
    expect(a.onFrame).toHaveBeenCalledOnce();
    stopOther();
  });

  it('sends on the socket the room attached, and says not connected without one', () => {
    const socket = { status: 'connected' as const, send: vi.fn(() => 'sent' as const) };
    expect(roomChannel.send('c1', { type: 'typing', is_typing: false })).toBe('not_connected');
    expect(roomChannel.statusOf('c1')).toBe('disconnected');
    const detach = roomChannel.attach('c1', socket);
    expect(roomChannel.statusOf('c1')).toBe('connected');
    expect(roomChannel.send('c1', { type: 'typing', is_typing: false })).toBe('sent');
    expect(socket.send).toHaveBeenCalledOnce();
    detach();
    expect(roomChannel.send('c1', { type: 'typing', is_typing: false })).toBe('not_connected');
  });
});
