import { defineConfig } from 'vitest/config';

// `npm run test:failover`: Redis failovers on real processes (test/failover): a Sentinel
// master SIGKILLed or demoted, or one address's server demoted to a replica, under
// BullMQ, the app and the worker. Run by hand (about 3.5 min); not in .ci/run until one
// flaky drill step is explained (.ci/run says which).
export default defineConfig({
  test: {
    include: ['test/failover/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
});
