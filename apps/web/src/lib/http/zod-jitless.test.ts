import { expect, it } from 'vitest';

it('makes zod parse without compiling code, set before zod is loaded', async () => {
  await import('./zod-jitless');
  const { z } = await import('zod');
  expect(z.config().jitless).toBe(true);
  // The schemas still parse and refuse as before.
  const schema = z.object({ id: z.number(), body: z.string() });
  expect(schema.safeParse({ id: 1, body: 'hi' }).success).toBe(true);
  expect(schema.safeParse({ id: '1', body: 'hi' }).success).toBe(false);
});
