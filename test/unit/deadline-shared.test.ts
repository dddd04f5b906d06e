/**
 * One deadline per answer (src/queue/deadline.ts, issue 68.1): every Redis call of one
 * answer (an ack, an Approve) is bounded by what is left of the same deadline, so a
 * later call gets the rest of the time, never the whole of it again; and a call bounded
 * alone (withDeadline) gets its own.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deadlineIn, withDeadline } from '../../src/queue/deadline.js';

afterEach(() => {
  vi.useRealTimers();
});

const never = (): Promise<never> => new Promise<never>(() => undefined);

describe('a deadline shared by the calls of one answer', () => {
  it('a later call gets what is left: 300 ms of 1,000 after 700 have passed', async () => {
    vi.useFakeTimers();
    const deadline = deadlineIn(1000);
    await deadline.bound(Promise.resolve('budget read'), 'the command budget');
    await vi.advanceTimersByTimeAsync(700);
    let outcome = 'still waiting';
    void deadline.bound(never(), 'the diagnose job').catch((error: Error) => {
      outcome = error.message;
    });
    await vi.advanceTimersByTimeAsync(301);
    expect(outcome).toBe('the diagnose job: Redis did not answer within 300 ms');
    expect(deadline.left()).toBe(0);
  });

  it('a call bounded alone gets its own time, whatever came before', async () => {
    vi.useFakeTimers();
    await vi.advanceTimersByTimeAsync(700);
    let settled = false;
    const alone = withDeadline(never(), 'a claim', 1000).catch(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(301);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(700);
    await alone;
    expect(settled).toBe(true);
  });
});
