import { defineConfig } from 'vitest/config';
import { HOOK_TIMEOUT_MS, TEST_TIMEOUT_MS } from './test/support/timeouts.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The image's test builds and runs containers: its own step (npm run test:image).
    exclude: ['test/image/**', 'test/package/**', 'test/failover/**', '**/node_modules/**'],
    // From the one place the tests' limits live (ROLLOUT_DOCTOR_TEST_TIME_SCALE scales them).
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: HOOK_TIMEOUT_MS,
    // Integration tests start their own redis-server and simulator per file; two
    // cores on CI machines, so keep file parallelism modest.
    maxWorkers: 2,
  },
});
