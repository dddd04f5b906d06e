/**
 * The simulator's paused clock (sim/controllers/manager.ts pauseClock) as live tests use
 * it: a delayed step set while paused waits for the resume, and settle() does not wait
 * for it, so a test reads a state that lasts milliseconds at a high time scale.
 */
import { describe, expect, it } from 'vitest';
import { createControllerManager } from '../../sim/controllers/manager.js';
import { LogStore } from '../../sim/logs.js';
import { Store } from '../../sim/store.js';

describe('paused clock and settle', () => {
  it('a step set while paused runs only after the resume, and settle does not wait for it', async () => {
    const manager = createControllerManager(new Store(), new LogStore(), 50);
    try {
      const ran: string[] = [];
      manager.pauseClock();
      manager.context.after(0, () => ran.push('held'), { settles: true });
      // settle() polls on later timers, so the step above comes due during it.
      await manager.settle(2_000);
      expect(ran).toEqual([]);
      manager.resumeClock();
      await manager.settle(2_000);
      expect(ran).toEqual(['held']);
      manager.context.after(0, () => ran.push('free'), { settles: true });
      await manager.settle(2_000);
      expect(ran).toEqual(['held', 'free']);
    } finally {
      manager.stop();
    }
  });
});
