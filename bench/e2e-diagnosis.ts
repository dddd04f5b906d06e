/**
 * One diagnosis end to end: a signed `/rollout-doctor` command received by the app
 * until the result is posted on the Slack stand-in, through Redis, a worker process
 * and the simulator with 20 ms added to every API request. Repeated as the cluster
 * grows (10 nodes/100 pods up to 5,000/100,000) with the worker's memory. The app
 * and the worker run compiled with plain node, as in production (bench/lib/build.ts).
 *
 * The cluster is bench/collector.ts's static one (seed incident A mid-deadlock plus
 * filler), so the figures line up with the collector benchmark.
 *
 * Run: npx tsx bench/e2e-diagnosis.ts
 */
import { pathToFileURL } from 'node:url';
import type { RecordedRequest } from '../sim/index.js';
import { CHAIN_LENGTH, TARGET, generateCluster } from './collector.js';
import { median, sequentialDepth } from './lib/stats.js';
import { buildCompiled } from './lib/build.js';
import { startStack, type Stack } from './lib/stack.js';

export const LATENCY_MS = 20;
/** API round trips a dry run needs after the collector: re-read, then the dry-run PATCH. */
export const DRY_RUN_CHAIN = 2;

export interface DiagnosisRun {
  ms: number;
  requests: number;
  logRequests: number;
  dryRunRequests: number;
  /** Requests of the collector (log tails aside): those before the first dry run's re-read. */
  collectRequests: number;
  /** Longest run of requests the worker waited for one after another. */
  depth: number;
}

export interface SizeFigures {
  nodes: number;
  pods: number;
  runs: DiagnosisRun[];
  medianMs: number;
  medianRequests: number;
  medianReadRequests: number;
  medianCollectRequests: number;
  medianDepth: number;
  /** Design floor: collector rounds + one dry run, each one round trip at LATENCY_MS. */
  floorMs: number;
  workerIdleMb: number;
  workerRssMb: number;
  workerPeakMb: number;
  /** Idle RSS of the same worker run from source through tsx (development), when measured. */
  tsxWorkerIdleMb?: number;
}

const COMMAND = `${TARGET.name} -n ${TARGET.namespace}`;

/** Sends the command and resolves with the milliseconds until the result was posted. */
export async function timeOneDiagnosis(stack: Stack, timeoutMs = 30_000): Promise<number> {
  const before = stack.slack.calls.length;
  const started = Date.now();
  const res = await stack.command(COMMAND);
  if (res.status !== 200) throw new Error(`command refused: ${res.status} ${res.body}`);
  const call = await stack.slack.waitFor(
    (s) =>
      s.calls
        .slice(before)
        .find(
          (c) =>
            (c.method === 'chat.update' || c.method === 'chat.postMessage') &&
            c.response.ok === true &&
            JSON.stringify(c.args).includes('RolloutSurgeDeadlock'),
        ),
    timeoutMs,
  );
  return call.at - started;
}

/**
 * Diagnoses `runs` times (after one warm-up) on a cluster of the given size, with the
 * app and worker compiled as in production. `compareTsx` also starts a worker from
 * source through tsx, reads its idle memory and stops it before any diagnosis.
 */
export async function measureSize(
  nodes: number,
  pods: number,
  runs: number,
  options: { compareTsx?: boolean } = {},
): Promise<SizeFigures> {
  const compiled = await buildCompiled();
  const stack = await startStack({
    sim: { scenario: generateCluster({ nodes, pods }), controllers: false, latencyMs: LATENCY_MS },
    compiled,
  });
  try {
    const workerIdleMb = stack.workers[0]?.memory().rssMb ?? Number.NaN;
    let tsxWorkerIdleMb: number | undefined;
    if (options.compareTsx) {
      const tsxWorker = await stack.startWorker({}, { tsx: true });
      tsxWorkerIdleMb = tsxWorker.memory().rssMb;
      await tsxWorker.stop('SIGTERM');
    }
    await timeOneDiagnosis(stack, 60_000); // warm-up: connections, JIT, first queue poll
    const results: DiagnosisRun[] = [];
    for (let i = 0; i < runs; i += 1) {
      // The finished job is removed just after its result is queued; a command
      // arriving before that would join the old run instead of starting one.
      await new Promise((r) => setTimeout(r, 300));
      stack.sim.clearRequests();
      const ms = await timeOneDiagnosis(stack);
      const requests = [...stack.sim.requests];
      results.push({
        ms,
        requests: requests.length,
        logRequests: requests.filter((r) => r.subresource === 'log').length,
        dryRunRequests: requests.filter((r) => r.dryRun).length,
        collectRequests: collectRequests(requests),
        depth: sequentialDepth(requests),
      });
    }
    const worker = stack.workers[0];
    const memory = worker ? worker.memory() : { rssMb: Number.NaN, peakMb: Number.NaN };
    return {
      nodes,
      pods,
      runs: results,
      medianMs: median(results.map((r) => r.ms)),
      medianRequests: median(results.map((r) => r.requests)),
      medianReadRequests: median(results.map((r) => r.requests - r.logRequests)),
      medianCollectRequests: median(results.map((r) => r.collectRequests)),
      medianDepth: median(results.map((r) => r.depth)),
      floorMs: (CHAIN_LENGTH + DRY_RUN_CHAIN) * LATENCY_MS,
      workerIdleMb,
      workerRssMb: memory.rssMb,
      workerPeakMb: memory.peakMb,
      ...(tsxWorkerIdleMb !== undefined ? { tsxWorkerIdleMb } : {}),
    };
  } finally {
    await stack.close();
  }
}

export interface E2eBench {
  sizes: SizeFigures[];
  timeGrowth: number;
  requestGrowth: number;
}

/** The three cluster sizes; the smallest is the end-to-end figure. */
export async function runE2eBench(
  options: { sizes?: { nodes: number; pods: number; runs: number }[] } = {},
): Promise<E2eBench> {
  const plan = options.sizes ?? [
    { nodes: 10, pods: 100, runs: 5 },
    { nodes: 500, pods: 10_000, runs: 3 },
    { nodes: 5000, pods: 100_000, runs: 3 },
  ];
  const sizes: SizeFigures[] = [];
  for (const [i, size] of plan.entries()) {
    sizes.push(await measureSize(size.nodes, size.pods, size.runs, { compareTsx: i === 0 }));
  }
  const first = sizes[0];
  const last = sizes.at(-1);
  return {
    sizes,
    timeGrowth: first && last ? last.medianMs / first.medianMs : Number.NaN,
    requestGrowth: first && last ? last.medianRequests / first.medianRequests : Number.NaN,
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  runE2eBench(quick ? { sizes: [{ nodes: 10, pods: 100, runs: 3 }] } : {}).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}

/**
 * The collector's requests (log tails aside). The collector reads each object or list
 * once; the dry runs that follow it begin by re-reading their targets (side by side,
 * one per plan), so the first request that repeats an earlier one (same verb, object
 * and query) starts the dry-run phase. Timing alone cannot tell: the plans' re-reads
 * start together, before any dry-run write.
 */
function collectRequests(requests: readonly RecordedRequest[]): number {
  const ordered = [...requests]
    .filter((r) => r.subresource !== 'log')
    .sort((a, b) => (a.receivedAt ?? 0) - (b.receivedAt ?? 0));
  const seen = new Set<string>();
  let count = 0;
  for (const r of ordered) {
    const key = [r.verb, r.resource, r.subresource, r.namespace, r.name, r.query].join(' ');
    if (r.dryRun || seen.has(key)) break;
    seen.add(key);
    count += 1;
  }
  return count;
}
