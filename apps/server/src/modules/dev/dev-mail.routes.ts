import type { FastifyInstance } from 'fastify';
import type { OutboxMailer } from '../../platform/mail';

// The dev outbox, readable in a browser: only registered when there is no SMTP server and NODE_ENV is not production.
const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export async function devMailRoutes(app: FastifyInstance, outbox: OutboxMailer) {
  app.get('/dev/mail.json', async () => outbox.list());

  app.get('/dev/mail', async (_req, reply) => {
    const mails = await outbox.list();
    const items = mails
      .map(
        (m) =>
          `<article><h2>${escapeHtml(m.subject)}</h2><p class="meta">To ${escapeHtml(m.to)} · ${escapeHtml(m.date)}</p><pre>${escapeHtml(m.text)}</pre></article>`,
      )
      .join('\n');
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parley dev outbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1e293b}
article{border:1px solid #e2e8f0;border-radius:.75rem;padding:1rem;margin:1rem 0}h2{font-size:1.1rem;margin:0}
.meta{color:#64748b;font-size:.875rem}pre{white-space:pre-wrap;font-size:1rem}</style></head>
<body><h1>Dev outbox</h1><p>Mail that Parley would have sent. Newest first. Set SMTP_URL to send real mail.</p>
${items || '<p>No mail yet.</p>'}</body></html>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
  });
}
