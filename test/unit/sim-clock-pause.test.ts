/**
 * The simulator's real clock can be paused (sim/controllers/manager.ts pauseClock): a
 * timer pending when time stops keeps what was left of its wait and fires only that much
 * after resumeClock; a timer set while paused waits for the resume too. The preview holds
 * incident B's crash loop at one restart count with it (scripts/preview.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createControllerManager } from '../../sim/controllers/manager.js';
import { LogStore } from '../../sim/logs.js';
import { Store } from '../../sim/store.js';

describe('the simulator clock, paused and resumed', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds pending and new timers while paused and gives them the rest of their wait after', () => {
    const manager = createControllerManager(new Store(), new LogStore(), 2); // 2 sim s per real s
    const fired: string[] = [];
    manager.context.after(20, () => fired.push('pending')); // due after 10 s of real time
    vi.advanceTimersByTime(4_000);
    manager.pauseClock();
    manager.context.after(2, () => fired.push('set while paused')); // 1 s once resumed
    vi.advanceTimersByTime(600_000);
    expect(fired).toEqual([]);

    manager.resumeClock();
    vi.advanceTimersByTime(999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['set while paused']);
    vi.advanceTimersByTime(4_999);
    expect(fired).toEqual(['set while paused']);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['set while paused', 'pending']);
    manager.stop();
  });

  it('a second pause keeps the first one held, and stop drops what is held', () => {
    const manager = createControllerManager(new Store(), new LogStore(), 1);
    const fired: number[] = [];
    manager.context.after(1, () => fired.push(1));
    manager.pauseClock();
    manager.pauseClock();
    vi.advanceTimersByTime(5_000);
    manager.stop();
    manager.resumeClock();
    vi.advanceTimersByTime(5_000);
    expect(fired).toEqual([]);
  });
});
