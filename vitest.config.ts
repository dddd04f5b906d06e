import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The image's test builds and runs containers: its own step (npm run test:image).
    exclude: ['test/image/**', 'test/package/**', 'test/failover/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests start their own redis-server and simulator per file; two
    // cores on CI machines, so keep file parallelism modest.
    maxWorkers: 2,
  },
});
