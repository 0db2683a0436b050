// Business constants and limits (SPEC §9, DESIGN §1 and §7). Both the server and the web read them from here.
export const CODE_LENGTH = 6;
export const CODE_TTL_MINUTES = 15;
export const CODE_MAX_ATTEMPTS = 5;
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 150;
export const NAME_MAX_LENGTH = 150;
export const EMAIL_MAX_LENGTH = 254;
export const GROUP_NAME_MAX_LENGTH = 100;
export const BIO_MAX_LENGTH = 500;
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;
export const GROUP_AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const ATTACHMENT_MAX_BYTES = 25 * 1024 * 1024;
export const TYPING_STOP_DELAY_MS = 2000;
export const CLOSE_NORMAL = 1000;
export const CLOSE_AUTH_FAILED = 4001;
export const CLOSE_NOT_FOUND = 4004;
/** Too many sockets open for one person (DESIGN §7). */
export const CLOSE_TOO_MANY = 4029;
/** The server is restarting (SIGTERM): reconnect at once, to another process. */
export const CLOSE_SERVICE_RESTART = 1012;
/** The server cannot open the socket now (its database is away, or too many are opening): try again later. */
export const CLOSE_TRY_AGAIN_LATER = 1013;
export const PREVIEW_LENGTH = 40;
export const MESSAGE_MAX_LENGTH = 4096;
export const SOCKET_MAX_PAYLOAD_BYTES = 64 * 1024;
export const HOME_CACHE_MS = 60_000;
export const SESSION_TTL_REMEMBER_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_TTL_SHORT_MS = 24 * 60 * 60 * 1000;
export const TOAST_AUTO_CLOSE_MS = 5000;
/** The username and display name a deleted account's messages and memberships show (kept here, not beside the
 * chat schemas, so a screen that needs only these names loads no zod). */
export const DELETED_USERNAME = 'deleted_user';
export const DELETED_DISPLAY_NAME = 'Deleted User';
export const PLACEHOLDER_USERS = '1000+';
export const PLACEHOLDER_MESSAGES = '50K+';
export const STORAGE_KEYS = { token: 'token', user: 'user', rememberMe: 'rememberMe' } as const;
/** A reply's quote of the message it answers is cut to this many characters. */
export const REPLY_QUOTE_LENGTH = 100;
/** Different emoji one message may carry. */
export const MAX_REACTION_EMOJI = 20;
