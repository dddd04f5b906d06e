import { defineConfig } from 'vitest/config';
import { scaled } from './test/support/timeouts.js';

// `npm run test:package`: npm pack, a global install into a temporary prefix and every
// command on Node 20 and Node 24 (test/package). Its own step: packing the bundled
// dependencies and installing them take minutes on this machine.
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    testTimeout: scaled(300_000),
    hookTimeout: scaled(30 * 60_000),
    maxWorkers: 1,
  },
});
