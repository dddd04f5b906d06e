import { defineConfig } from 'vitest/config';
import { HOOK_TIMEOUT_MS, TEST_TIMEOUT_MS } from './test/support/timeouts.js';

/**
 * The whole-tree checks: one worker runs both without isolation, so they share one walk,
 * read and parse of the tree (test/support/source-tree.ts) instead of each doing its own.
 */
const SOURCE_TREE = ['test/unit/structure.test.ts', 'test/unit/import-boundaries.test.ts'];

export default defineConfig({
  test: {
    // The image's test builds and runs containers: its own step (npm run test:image).
    exclude: ['test/image/**', 'test/package/**', 'test/failover/**', '**/node_modules/**'],
    // From the one place the tests' limits live (ROLLOUT_DOCTOR_TEST_TIME_SCALE scales them).
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: HOOK_TIMEOUT_MS,
    // Integration tests start their own redis-server and simulator per file; two
    // cores on CI machines, so keep file parallelism modest.
    maxWorkers: 2,
    // Vitest runs projects of one group together and the groups one after another: the
    // source-tree checks (one worker, some seconds) first, then everything else.
    projects: [
      {
        extends: true,
        test: {
          name: 'source-tree',
          include: SOURCE_TREE,
          isolate: false,
          maxWorkers: 1,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: SOURCE_TREE,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
