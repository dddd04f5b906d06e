import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { HOOK_TIMEOUT_MS, TEST_TIMEOUT_MS } from './test/support/timeouts.js';

/**
 * The whole-tree checks: one worker runs both without isolation, so they share one walk,
 * read and parse of the tree (test/support/source-tree.ts) instead of each doing its own.
 */
const SOURCE_TREE = ['test/unit/structure.test.ts', 'test/unit/import-boundaries.test.ts'];

/**
 * A test file that replaces a module, a global, the environment or its own limits
 * (vi.mock and the like) needs a module registry of its own: shared, the replacement
 * would reach the files after it.
 */
const REPLACES_MODULES = /\bvi\.(mock|doMock|unmock|doUnmock|stubGlobal|stubEnv|resetModules|setConfig)\b/;

/**
 * The test files that replace nothing (unit, simulator, hostile input, integration, drills): they
 * run in workers that keep their modules from one file to the next, so each worker
 * imports src/ (zod, client-node, Bolt…) once instead of once per file; on a 2-core
 * machine that import was about 40% of the suite's time (the 69 integration files alone:
 * 126 s isolated, 77 s shared). Read from the files themselves, so a new file that mocks
 * is isolated without a list to keep. What an app runtime keeps is its own (its services,
 * its announcement slots), so runtimes started by one file do not reach the next. The
 * drills share too: what they run is in the processes they start, and an isolated drill
 * spent seconds importing src/ for the few helpers it calls itself.
 */
function sharedModuleFiles(): string[] {
  return ['test/unit', 'test/sim', 'test/hostile', 'test/integration', 'test/drills']
    .flatMap((dir) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.test.ts'))
        .map((file) => join(dir, file)),
    )
    .filter((file) => !SOURCE_TREE.includes(file) && !REPLACES_MODULES.test(readFileSync(file, 'utf8')))
    .sort();
}
const SHARED_MODULES = sharedModuleFiles();

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
          // Named to sort after 'suite': vitest runs a group's projects in name order, so
          // the long isolated files (drills, integration) start first and these fill in.
          name: 'suite-shared',
          include: SHARED_MODULES,
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...SOURCE_TREE, ...SHARED_MODULES],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
