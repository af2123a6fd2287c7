import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30000,
    pool: 'forks',
    // Content equality for shared-log structures (see the file).
    setupFiles: ['test/setup/equality.ts'],
  },
});
