import { describe, expect, it } from 'vitest';
import { NOT_CONNECTED_TEXT, SEND_FAILED_TEXT, sendFailure } from './room-sends';

describe('sendFailure', () => {
  it('is null for a frame that went out', () => {
    expect(sendFailure('sent')).toBeNull();
  });

  it('asks to reconnect when nothing was connected, or there is no socket at all', () => {
    expect(sendFailure('not_connected')).toEqual({ text: NOT_CONNECTED_TEXT, reconnect: true });
    expect(sendFailure(undefined)).toEqual({ text: NOT_CONNECTED_TEXT, reconnect: true });
  });

  it('only reports a write that failed on an open socket', () => {
    expect(sendFailure('failed')).toEqual({ text: SEND_FAILED_TEXT, reconnect: false });
  });
});
