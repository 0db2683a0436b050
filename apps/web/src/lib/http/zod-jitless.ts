// zod builds a faster parser for each object schema with `new Function` where the page allows it, and probes for
// that the first time one is built. Parley's Content-Security-Policy does not allow it (script-src 'self'), so
// the probe is refused, the browser logs a CSP violation on every load (Lighthouse's Best Practices: 'Issues
// were logged') and zod parses as it would without. `jitless` skips the probe. zod reads its settings from
// `globalThis.__zod_globalConfig`, which every copy of it shares and keeps once set, so they are given here
// without loading zod into the first screen's code; main.tsx imports this first, before any schema is built
// (the chunks that build them load on demand). zod-jitless.test.ts checks that zod still reads them there. A
// module (its empty export) so that the test may import it.
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };

export {};
