import { defineConfig } from 'vitest/config';
import { HOOK_TIMEOUT_MS, STORY_TIMEOUT_MS } from './test/support/timeouts.js';

// `npm run test:failover`: Redis failovers on real processes (test/failover): a Sentinel
// master SIGKILLed or demoted, or one address's server demoted to a replica, under
// BullMQ, the app and the worker, writes lost to asynchronous replication, the
// early-warning lease, the minute after a failover that left no replica. About 6 min on
// a 2-core machine at load 10 (files one at a time); a step of .ci/run. Every limit
// comes from test/support/timeouts.ts.
export default defineConfig({
  test: {
    include: ['test/failover/**/*.test.ts'],
    testTimeout: STORY_TIMEOUT_MS,
    hookTimeout: HOOK_TIMEOUT_MS,
    maxWorkers: 1,
  },
});
