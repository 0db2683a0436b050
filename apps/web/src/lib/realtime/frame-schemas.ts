// The socket frame schemas on their own, for the room's and the notification channel's sockets to load while
// their first ticket is on its way (lazyFrameSchema in chat-socket.ts): zod and the schemas it builds are then
// no part of the first screen.
export { notificationFrameSchema, serverFrameSchema } from '@parley/protocol';
