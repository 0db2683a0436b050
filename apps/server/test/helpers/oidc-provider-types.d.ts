// oidc-provider ships no types: the little of it the tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }
  export interface ProviderConfiguration {
    clients?: Record<string, unknown>[];
    findAccount?: (ctx: unknown, id: string) => Promise<Account | undefined> | Account | undefined;
    claims?: Record<string, string[]>;
    features?: Record<string, unknown>;
    pkce?: Record<string, unknown>;
    cookies?: Record<string, unknown>;
    ttl?: Record<string, number>;
    [key: string]: unknown;
  }
  export class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
  export default Provider;
}
