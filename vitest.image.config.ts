import { defineConfig } from 'vitest/config';
import { scaled } from './test/support/timeouts.js';

// `npm run test:image`: the container image's end-to-end test (test/image), its own CI step
// because building the image takes minutes (.ci/run, docs/benchmarks.md).
export default defineConfig({
  test: {
    include: ['test/image/**/*.test.ts'],
    testTimeout: scaled(180_000),
    hookTimeout: scaled(45 * 60_000),
    maxWorkers: 1,
  },
});
