import fs from 'node:fs';
import Fastify from 'fastify';

// The history endpoint's peer: a bare Fastify route returning the very JSON Parley returned for the same page
// (read from BENCH_HISTORY_FILE), serialised per request as Parley's is. No auth, no database.
const page: unknown = JSON.parse(fs.readFileSync(process.env.BENCH_HISTORY_FILE as string, 'utf8'));
const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'ok' }));
app.get('/api/chats/:chatId/messages/', async () => page);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => process.exit(0));
