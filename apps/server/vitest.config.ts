import { defineConfig } from 'vitest/config';

// Integration tests: each file builds the real app in-process against a fresh database and a real SMTP sink.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
