/**
 * Worker RSS while the early warning watches 100,000 pods, measured rather than
 * extrapolated: the simulator serves 5,000 nodes and 100,000 pods,
 * and two compiled worker processes (`src/worker/main.ts`, plain node as in
 * production) run beside it: one watching every namespace (one cluster-wide pair of
 * pod and event streams), one without the early warning. RSS is sampled once both
 * streams are open and the first list is in, for a few seconds, and the last and
 * peak readings are kept.
 *
 * Standalone: `npx tsx bench/watch-rss.ts` (BENCH_PODS, BENCH_NODES to change the size).
 */
import { fileURLToPath } from 'node:url';
import { generateScaleScenario } from '../sim/scale.js';
import { buildCompiled } from './lib/build.js';
import { startStack } from './lib/stack.js';
import type { Section } from './report.js';

export interface WatchRss {
  nodes: number;
  pods: number;
  /** RSS (MB) of the watching worker after the first list, and its peak so far. */
  watchingMb: number;
  watchingPeakMb: number;
  /** RSS (MB) of the worker without the early warning, same moment. */
  plainMb: number;
  /** Start of the watching worker → both cluster-wide streams open (ms). */
  toWatchingMs: number;
}

/** The goal: a worker watching 100,000 pods stays under this. */
export const WATCH_RSS_LIMIT_MB = 512;

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function runWatchRssBench(options: { nodes?: number; pods?: number } = {}): Promise<WatchRss> {
  const nodes = options.nodes ?? 5_000;
  const pods = options.pods ?? 100_000;
  const compiled = await buildCompiled();
  const stack = await startStack({
    sim: { scenario: generateScaleScenario({ nodes, pods }), timeScale: 50 },
    workers: 0,
    compiled,
  });
  try {
    await stack.sim.settle();
    const plain = await stack.startWorker();
    const started = Date.now();
    const watching = await stack.startWorker({
      ROLLOUT_DOCTOR_WATCH_NAMESPACES: '*',
      ROLLOUT_DOCTOR_WATCH_INTERVAL_SECONDS: '3600',
    });
    const clusterWatch = (resource: string): boolean =>
      stack.sim.requests.some((r) => r.verb === 'watch' && r.resource === resource && !r.namespace);
    await until(
      'both cluster-wide watches open',
      () => clusterWatch('pods') && clusterWatch('events'),
      600_000,
    );
    const toWatchingMs = Date.now() - started;
    // The first list's garbage goes within seconds: sample 5 s, keep the last reading.
    const end = Date.now() + 5_000;
    await until('the sampling window', () => Date.now() > end, 10_000);
    const listed = stack.sim.list('Pod').length;
    const { rssMb, peakMb } = watching.memory();
    return {
      nodes,
      pods: listed,
      watchingMb: rssMb,
      watchingPeakMb: peakMb,
      plainMb: plain.memory().rssMb,
      toWatchingMs,
    };
  } finally {
    await stack.close();
  }
}

export function watchRssSection(r: WatchRss): Section {
  const perPod = ((r.watchingMb - r.plainMb) * 1024 * 1024) / Math.max(1, r.pods);
  return {
    title: `Worker memory watching ${r.pods.toLocaleString('en-US')} pods (measured)`,
    rows: [
      {
        figure: `worker RSS watching every namespace, ${r.nodes.toLocaleString('en-US')} nodes / ${r.pods.toLocaleString('en-US')} pods (1 run)`,
        median: `${r.watchingMb} MB (peak ${r.watchingPeakMb} MB)`,
        comparison: `worker without the early warning: ${r.plainMb} MB (${Math.round(perPod)} bytes per watched pod)`,
        target: `< ${WATCH_RSS_LIMIT_MB} MB`,
        met: r.watchingPeakMb < WATCH_RSS_LIMIT_MB,
      },
      {
        figure: 'watching worker start → both cluster-wide streams open',
        median: `${(r.toWatchingMs / 1000).toFixed(1)} s`,
        comparison: 'includes the first list of every pod and the safety-net scan at start',
        target: '—',
        met: undefined,
      },
    ],
    notes: [
      'Two compiled worker processes (plain node, as in production) beside the simulator serving the generated cluster (sim/scale.ts); RSS from /proc after the first list, and its peak (VmHWM), which includes the list itself and the scan of every Deployment at start. Target met on the peak.',
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runWatchRssBench({
    nodes: Number(process.env['BENCH_NODES'] ?? '5000'),
    pods: Number(process.env['BENCH_PODS'] ?? '100000'),
  });
  console.log(JSON.stringify(result, null, 2));
  for (const row of watchRssSection(result).rows)
    console.log(`| ${row.figure} | ${row.median} | ${row.comparison} | ${row.target} |`);
}
