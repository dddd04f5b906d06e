import { defineConfig } from 'vitest/config';

// `npm run test:failover`: Redis failovers on real processes (test/failover): a Sentinel
// master SIGKILLed or demoted, or one address's server demoted to a replica, under
// BullMQ, the app and the worker, writes lost to asynchronous replication, the
// early-warning lease. Run by hand (4 to 6 min on a loaded 2-core machine); not in
// .ci/run until it passes five runs in a row (.ci/run says where it stands).
export default defineConfig({
  test: {
    include: ['test/failover/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
});
