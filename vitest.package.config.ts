import { defineConfig } from 'vitest/config';

// `npm run test:package`: npm pack, a global install into a temporary prefix and every
// command on Node 20 and Node 24 (test/package). Its own step: packing the bundled
// dependencies and installing them take minutes on this machine.
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 30 * 60_000,
    maxWorkers: 1,
  },
});
