/**
 * A Redis that stalls under the app: the app's link to Redis holds every
 * byte for 20 s (connection open, nothing answered: a paused server, a slow fsync, a
 * black hole) while a person keeps asking, one command every 2 s, each about a
 * Deployment of its own. Figures: the time from the end of the stall to the next
 * command taken and its result posted, and how the stalled commands ended: a visible
 * "try again" within Slack's 3 s, or a failure Slack shows (late, no answer), and how
 * many ran unseen after all (the cluster asked about their target or a post for them;
 * goal 0). The story is bench/lib/stall-story.ts, the one the drill asserts
 * (test/drills/redis-stall.test.ts).
 *
 * Run: npx tsx bench/redis-stall.ts
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildCompiled } from './lib/build.js';
import { addBystander } from './lib/failover-probes.js';
import { startStack } from './lib/stack.js';
import { median } from './lib/stats.js';
import { ACK_WINDOW_MS, playStall, type StallRound } from './lib/stall-story.js';
import { renderSection, type Section } from './report.js';

export const STALL_MS = 20_000;
export const STALL_ROUNDS = 3;

export interface StallBench {
  rounds: (StallRound & { load: number })[];
  seconds: number;
}

export async function runStallBench(
  options: { rounds?: number; log?: (line: string) => void } = {},
): Promise<StallBench> {
  const started = Date.now();
  const stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 1,
    appRedisLink: true,
    compiled: await buildCompiled(),
  });
  try {
    await addBystander(stack.sim);
    const rounds: StallBench['rounds'] = [];
    for (let n = 0; n < (options.rounds ?? STALL_ROUNDS); n += 1) {
      const round = await playStall(stack, {
        stallMs: STALL_MS,
        everyMs: 2_000,
        channel: `C0STALL${n}`,
        user: `U0STALL${n}`,
      });
      rounds.push({ ...round, load: loadavg()[0] ?? 0 });
      options.log?.(`round ${n + 1}: ${JSON.stringify({ ...round, during: round.during.map((c) => c.ms) })}`);
    }
    return { rounds, seconds: Math.round((Date.now() - started) / 1000) };
  } finally {
    await stack.close();
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export function stallSection(r: StallBench): Section {
  const n = r.rounds.length;
  const answered = r.rounds.flatMap((x) => (x.after.answeredMs === undefined ? [] : [x.after.answeredMs]));
  const accepted = r.rounds.map((x) => x.after.acceptedMs);
  const sent = r.rounds.reduce((a, x) => a + x.during.length, 0);
  const visible = r.rounds.reduce((a, x) => a + x.visible, 0);
  const failed = r.rounds.reduce((a, x) => a + x.failed.length, 0);
  const unseen = r.rounds.reduce((a, x) => a + x.unseen.length, 0);
  const slowest = Math.max(0, ...r.rounds.flatMap((x) => x.during.map((c) => c.ms ?? Infinity)));
  return {
    title: `Redis stalls for ${STALL_MS / 1000} s under the app (${n} rounds)`,
    rows: [
      {
        figure: 'end of the stall → next command answered (result posted)',
        median: answered.length ? seconds(median(answered)) : '—',
        comparison: `taken after ${seconds(median(accepted))} (median; range ${seconds(Math.min(...accepted))}–${seconds(Math.max(...accepted))}); unanswered after the stall: ${n - answered.length}`,
        target: '—',
        met: undefined,
      },
      {
        figure: `commands during the stall: failed visibly ("try again" within ${ACK_WINDOW_MS / 1000} s) / ran unseen`,
        median: `${visible} / ${unseen}`,
        comparison: `${sent} sent; ${failed} without a visible answer in time (Slack shows its own failure); slowest answer ${Number.isFinite(slowest) ? seconds(slowest) : 'none'}`,
        target: '0 unseen, all visible',
        met: unseen === 0 && failed === 0,
      },
    ],
    notes: [
      `runStallBench() from bench/redis-stall.ts: the compiled app reaches Redis through a TCP proxy that holds every byte for ${STALL_MS / 1000} s (test/support/redis-faults.ts stall()), the worker reaches it directly. During the stall one person asks every 2 s about a Deployment of its own; after it they ask about a healthy one (vision-api) every 250 ms after a "try again" until one is taken. Unseen: a stalled command whose target the simulator was asked about, or that got a post, once the queues settled.`,
      `1-minute load average after each round: ${r.rounds.map((x) => x.load.toFixed(1)).join(', ')}. Whole run ${r.seconds} s; skip it with BENCH_STALL=0 npm run bench.`,
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runStallBench({
    rounds: Number(process.env['BENCH_STALL_ROUNDS'] ?? STALL_ROUNDS),
    log: (line) => console.log(line),
  });
  console.log(renderSection(stallSection(result), 'npx tsx bench/redis-stall.ts'));
}
