import { defineConfig } from 'vitest/config';

// Unit tests sit beside the code (*.test.ts). Server integration tests have their own config in apps/server.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'apps/server/src/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          environment: 'node',
          // The web app's texts come from catalogs: English is active in every unit test.
          setupFiles: ['apps/web/src/lib/i18n/test-setup.ts'],
        },
      },
    ],
  },
});
