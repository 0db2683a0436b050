import type { Socket } from 'node:net';

/**
 * Node's refusals of a request it could not parse (431 for headers too large, 408 for one too slow, else 400), as
 * `{detail}` JSON, then the connection dropped — as Fastify's own handler does, with the API's shape. A HEAD
 * request's answer has no body: its client would take the bytes as a broken next answer.
 */
export function answerClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ['431 Request Header Fields Too Large', 'Request headers too large.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['408 Request Timeout', 'The request took too long.']
        : ['400 Bad Request', 'Malformed request.'];
  // Node hands the bytes it could not parse as a Buffer (Fastify's types say otherwise).
  const head = Buffer.isBuffer(err.rawPacket) && err.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  const body = head ? '' : JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
