// Texts of the offline bar and the outbox: what the web shows while the network is down and for the
// messages waiting in the outbox.

export const OFFLINE_TEXT = {
  bar: 'You are offline. Messages will be sent when you reconnect.',
  waiting: 'Waiting to send',
  cancel: 'Cancel',
  cancelLabel: 'Cancel this message',
} as const;
