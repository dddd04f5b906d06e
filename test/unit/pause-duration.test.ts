/**
 * A canary pause step's duration as Argo Rollouts reads it (RolloutPause.DurationSeconds):
 * an integer or an integer string is seconds, else Go's time.ParseDuration; anything else
 * is a pause without a duration (it waits for a person).
 */
import { describe, expect, it } from 'vitest';
import { goDurationSeconds, pauseSeconds } from '../../src/diagnosis/workloads/rollout/pause-duration.js';
import { spanWords } from '../../src/text/time.js';

describe('pause durations', () => {
  it.each([
    [{ pause: { duration: 30 } }, 30],
    [{ pause: { duration: '45' } }, 45],
    [{ pause: { duration: '1h' } }, 3600],
    [{ pause: { duration: '1h30m' } }, 5400],
    [{ pause: { duration: '1.5h' } }, 5400],
    [{ pause: { duration: '1500ms' } }, 1],
    [{ pause: { duration: '10 minutes' } }, undefined],
    [{ pause: { duration: '1d' } }, undefined],
    [{ pause: { duration: '' } }, undefined],
    [{ pause: {} }, undefined],
    [{ setWeight: 20 }, undefined],
  ])('%j lasts %s s', (step, seconds) => {
    expect(pauseSeconds(step)).toBe(seconds);
  });

  it('reads Go durations part by part, and refuses what Go refuses', () => {
    expect(goDurationSeconds('2h45m30s')).toBe(9930);
    expect(goDurationSeconds('0')).toBe(0);
    expect(goDurationSeconds('5')).toBeUndefined();
    expect(goDurationSeconds('h')).toBeUndefined();
    expect(goDurationSeconds('1h 30m')).toBeUndefined();
  });

  it('says a span in its two largest units', () => {
    expect([45, 300, 5400, 183_600, 0].map(spanWords)).toEqual(['45s', '5m', '1h 30m', '2d 3h', '0s']);
    expect(spanWords(3600)).toBe('1h');
  });
});
