import { buildApp } from './app';
import { loadConfig } from './config';
import { NewerDatabaseError } from './db/migrate';

// Process entry: parse config once, build, listen, and shut down gracefully on SIGTERM/SIGINT.
const config = loadConfig();
const server = await buildApp(config).catch((err: unknown) => {
  if (!(err instanceof NewerDatabaseError)) throw err;
  // Said plainly, without a stack (the app and its logger were never finished): what happened, what to do.
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
let address: string;
try {
  address = await server.start();
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
  // Said plainly, without a stack: the one thing a newcomer needs to do about it.
  server.app.log.error(`Port ${config.port} is in use; set PORT to another port`);
  await server.stop().catch(() => {});
  process.exit(1);
}
const origin = address.replace('0.0.0.0', 'localhost');
server.app.log.info(`Parley is ready on ${origin}`);
// Last, so a newcomer sees where the sign-up code went without reading the lines above.
if (server.servesDevOutbox)
  server.app.log.info(
    `No SMTP_URL, so mail is not sent: sign-up codes and other mail are at ${origin}/dev/mail`,
  );

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    if (stopping) return;
    stopping = true;
    server.app.log.info(`${signal} received, closing`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await server.stop();
    process.exit(0);
  });
}
