// The room's frame schema on its own, loaded while the socket's ticket is on its way (hooks/use-room-socket.ts):
// building zod's schemas takes a phone a tenth of a second or more, which the room's first drawing need not wait for.
export { serverFrameSchema } from '@parley/protocol';
