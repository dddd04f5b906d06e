import { defineConfig } from 'vitest/config';

// `npm run test:failover`: Redis failovers on real processes (test/failover): a Sentinel
// master SIGKILLed or demoted, or one address's server demoted to a replica, under
// BullMQ, the app and the worker, writes lost to asynchronous replication, the
// early-warning lease. About 4.5 min on a loaded 2-core machine (files one at a time);
// run by hand, not in .ci/run: two drills fail since the merges of 2026-11-25 (issue 44).
export default defineConfig({
  test: {
    include: ['test/failover/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
});
