import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30000,
    pool: 'forks',
    // Content equality for shared-log structures, and property tests' array sizes (see the files).
    setupFiles: ['test/setup/equality.ts', 'test/setup/property-size.ts'],
  },
});
