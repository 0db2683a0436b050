import { createHash } from 'node:crypto';

/** How a bearer secret (a session's token, an API token, a ticket) is stored: its SHA-256, never itself. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
