import fs from 'node:fs';
import Fastify from 'fastify';

// The constant peer of a page: a bare Fastify route at BENCH_PAGE_ROUTE (a Fastify path, such as
// /api/chats/:chatId/messages/) returning the very JSON Parley returned for the same page (read from
// BENCH_PAGE_FILE), serialised per request as Parley's is. No auth, no database.
const page: unknown = JSON.parse(fs.readFileSync(process.env.BENCH_PAGE_FILE as string, 'utf8'));
const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'ok' }));
app.get(process.env.BENCH_PAGE_ROUTE as string, async () => page);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => process.exit(0));
