/**
 * The simulator's held timers (sim/controllers/manager.ts): a delayed step that comes
 * due while held waits for the release, settle() does not wait for it, and the release
 * runs it at once. Live tests use this to read a state that lasts milliseconds at a
 * high time scale.
 */
import { describe, expect, it } from 'vitest';
import { createControllerManager } from '../../sim/controllers/manager.js';
import { LogStore } from '../../sim/logs.js';
import { Store } from '../../sim/store.js';

describe('held timers', () => {
  it('a step due while held runs only at the release', async () => {
    const manager = createControllerManager(new Store(), new LogStore(), 50);
    try {
      const ran: string[] = [];
      manager.timers.hold();
      manager.context.after(0, () => ran.push('held'), { settles: true });
      // settle() polls on later timers, so the step above comes due during it.
      await manager.settle(2_000);
      expect(ran).toEqual([]);
      manager.timers.release();
      expect(ran).toEqual(['held']);
      manager.context.after(0, () => ran.push('free'), { settles: true });
      await manager.settle(2_000);
      expect(ran).toEqual(['held', 'free']);
    } finally {
      manager.stop();
    }
  });
});
