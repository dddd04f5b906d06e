import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, createRepeatLimitedErrorLog } from '../../src/logger.js';

describe('repeat-limited error log', () => {
  it('logs a repeating error once per interval and counts what it suppressed', () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    let clock = 0;
    const log = createRepeatLimitedErrorLog(
      createLogger({ level: 'info', name: 't' }, sink),
      1_000,
      () => clock,
    );
    for (let i = 0; i < 500; i += 1) log(new Error('connect ECONNREFUSED'), { queue: 'q' }, 'worker error');
    log(new Error('other'), { queue: 'q' }, 'worker error');
    clock = 1_500;
    log(new Error('connect ECONNREFUSED'), { queue: 'q' }, 'worker error');
    expect(lines.map((l) => [(l['err'] as { message: string }).message, l['repeated']])).toEqual([
      ['connect ECONNREFUSED', undefined],
      ['other', undefined],
      ['connect ECONNREFUSED', 499],
    ]);
  });
});
