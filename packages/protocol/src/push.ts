import { z } from 'zod';

// Web Push: the browser's PushSubscription as the web app posts it, and the payload the service
// worker receives. Keys are base64url as PushSubscription.toJSON() gives them.
const base64url = (bytes: number, label: string) =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${label} must be base64url.`)
    .refine(
      (v) => v.replace(/=+$/, '').length === Math.ceil((bytes * 4) / 3),
      `${label} must be ${bytes} bytes.`,
    );

export const PUSH_ENDPOINT_MAX_LENGTH = 2048;

const endpoint = z
  .string()
  .trim()
  .min(1, 'This field is required.')
  .max(PUSH_ENDPOINT_MAX_LENGTH)
  .pipe(z.url());

export const pushSubscribeSchema = z.object({
  endpoint,
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes). */
    p256dh: base64url(65, 'p256dh'),
    /** The 16-byte authentication secret. */
    auth: base64url(16, 'auth'),
  }),
});
export type PushSubscribePayload = z.infer<typeof pushSubscribeSchema>;

export const pushUnsubscribeSchema = z.object({ endpoint });

export interface VapidPublicKeyResponse {
  /** The server's VAPID public key, base64url: the applicationServerKey to subscribe with. */
  public_key: string;
}

/** What the service worker receives (decrypted) and shows as a notification. */
export interface PushPayload {
  title: string;
  body: string;
  chatroom_id: string;
  /** The chat's page: /chats/{id} or /groups/{id}. */
  url: string;
  /** Notifications of one chat replace each other. */
  tag: string;
  icon?: string | null;
}
