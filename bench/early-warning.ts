/**
 * Early warning: how long from the start of an incident to its thread on
 * the Slack stand-in, with the worker's watch of the API server and with the old
 * periodic scan (60 s), next to the ~25 minutes before KubeDeploymentRolloutStuck
 * fires. Also the watches held, the API requests per detection, and the memory of the
 * watch's pod records at up to 100,000 pods.
 *
 * App and workers run in this process (test/support/e2e-harness.ts: the real runtime
 * and Kubernetes wiring), with Redis, the simulator (time scale 1: real back-offs and
 * delays) and the Slack stand-in. The app is configured as the README's quick start
 * says: an alert channel, no Alertmanager token.
 *
 * Run alone: `npx tsx bench/early-warning.ts`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { generateScaleScenario } from '../sim/scale.js';
import type { Deployment } from '../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../src/diagnosis/k8s.js';
import { SignalTracker } from '../src/worker/early-warning/signals.js';
import { E2E_CHANNEL, deployment, livePods, startE2e, type E2eHarness } from '../test/support/e2e-harness.js';
import { startStack } from './lib/stack.js';
import type { Section } from './report.js';

/** KubeDeploymentRolloutStuck: progressDeadlineSeconds 600 + `for: 15m` (kube-prometheus). */
const ALERT_MINUTES = 25;
const SCAN_INTERVAL_SECONDS = 60;

export interface Detection {
  incident: 'deadlock' | 'crash';
  mode: 'watch' | 'scan';
  cluster: string;
  /** Image patch → thread root on the stand-in. */
  fromPatchMs: number;
  /** First FailedScheduling event (deadlock) or first crash (crash) → thread root. */
  fromSignalMs: number;
  /** API requests from the patch (deadlock) or first crash (crash) to the thread, by kind. */
  requests: { watchOrList: number; diagnosis: number };
  watchesHeld: number;
  podsTracked: number;
}

export interface TrackerMemory {
  pods: number;
  heapBytes: number;
}

/** Resident memory of worker processes over a large simulated cluster. */
export interface WorkerMemory {
  nodes: number;
  pods: number;
  /** RSS (MB) of a worker watching every namespace, streams open. */
  watchingMb: number;
  watchingPeakMb: number;
  /** RSS (MB) of a worker without the early warning, same moment. */
  plainMb: number;
  podsTracked: number;
}

export interface EarlyWarningBench {
  detections: Detection[];
  memory: TrackerMemory[];
  workers?: WorkerMemory;
}

function setImage(h: E2eHarness, namespace: string, name: string, image: string): void {
  const d: Deployment = deployment(h, namespace, name);
  const container = d.spec.template.spec.containers[0];
  if (!container) throw new Error(`${name} has no container`);
  container.image = image;
  h.sim.apply(d);
}

/** Polls `probe` every 5 ms until it returns a value; the time it first did. */
async function firstTime(probe: () => boolean, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (probe()) return Date.now();
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

function threadRoot(h: E2eHarness, code: string): boolean {
  return [...h.slack.messages.values()].some(
    (m) =>
      m.channel === E2E_CHANNEL && m.threadTs === undefined && m.text.startsWith(`Early warning: ${code}`),
  );
}

async function detect(
  incident: Detection['incident'],
  mode: Detection['mode'],
  scenario: { file: string; label: string; namespace: string },
): Promise<Detection> {
  const h = await startE2e({
    scenario: scenario.file,
    timeScale: 1,
    logLevel: 'warn',
    appEnv: { ROLLOUT_DOCTOR_ALERT_CHANNEL: E2E_CHANNEL },
    workerEnv: {
      ROLLOUT_DOCTOR_WATCH_NAMESPACES: scenario.namespace,
      ROLLOUT_DOCTOR_WATCH_INTERVAL_SECONDS: mode === 'watch' ? '3600' : String(SCAN_INTERVAL_SECONDS),
    },
    ...(mode === 'scan' ? { earlyWarningWatch: false } : {}),
  });
  try {
    await h.sim.settle();
    if (mode === 'watch') {
      await firstTime(() => (h.workers.earlyWarning?.stats().watchesHeld ?? 0) >= 2, 120_000);
    }
    const timeout = mode === 'watch' ? 60_000 : (SCAN_INTERVAL_SECONDS + 60) * 1000;
    if (incident === 'deadlock') {
      await firstTime(
        () => (deployment(h, 'vision', 'vision-object-tracker').status?.availableReplicas ?? 0) === 1,
        120_000,
      );
      const from = mark(h);
      const patchedAt = Date.now();
      setImage(h, 'vision', 'vision-object-tracker', 'vision/boost-track-app:1.1');
      const [eventAt, postedAt] = await Promise.all([
        firstTime(
          () =>
            (h.sim.list('Event', 'vision') as { reason?: string }[]).some(
              (e) => e.reason === 'FailedScheduling',
            ),
          timeout,
        ),
        firstTime(() => threadRoot(h, 'RolloutSurgeDeadlock'), timeout),
      ]);
      return figures(h, incident, mode, scenario.label, from, postedAt - patchedAt, postedAt - eventAt);
    }
    await firstTime(() => (deployment(h, 'shop', 'checkout').status?.availableReplicas ?? 0) === 3, 120_000);
    setImage(h, 'shop', 'checkout', 'shop/checkout:2.5.0');
    const patchedAt = Date.now();
    const crashedAt = await firstTime(
      () =>
        livePods(h, 'shop').some(
          (p: Pod) =>
            p.spec.nodeName === 'node-b' && (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
        ),
      120_000,
    );
    const from = mark(h);
    const postedAt = await firstTime(() => threadRoot(h, 'CrashLoopOnNode'), timeout);
    return figures(h, incident, mode, scenario.label, from, postedAt - patchedAt, postedAt - crashedAt);
  } finally {
    await h.close();
  }
}

/** Where the count of requests starts: the simulator's log and the watch's own counters. */
function mark(h: E2eHarness): { requests: number; streamRequests: number } {
  const streams = h.workers.earlyWarning?.stats().streams;
  return {
    requests: h.sim.requests.length,
    streamRequests: (streams?.listPages ?? 0) + (streams?.watches ?? 0),
  };
}

function figures(
  h: E2eHarness,
  incident: Detection['incident'],
  mode: Detection['mode'],
  cluster: string,
  from: { requests: number; streamRequests: number },
  fromPatchMs: number,
  fromSignalMs: number,
): Detection {
  const stats = h.workers.earlyWarning?.stats();
  const sent = h.sim.requests.length - from.requests;
  const streaming = (stats?.streams.listPages ?? 0) + (stats?.streams.watches ?? 0) - from.streamRequests;
  return {
    incident,
    mode,
    cluster,
    fromPatchMs,
    fromSignalMs,
    requests: { watchOrList: streaming, diagnosis: sent - streaming },
    watchesHeld: stats?.watchesHeld ?? 0,
    podsTracked: stats?.podsTracked ?? 0,
  };
}

/** Heap held by the watch's slim pod records, measured after a full GC. */
function trackerMemory(pods: number): TrackerMemory {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const base = process.memoryUsage().heapUsed;
  const tracker = new SignalTracker();
  tracker.beginList();
  // Page by page, as the stream hands them over (500 per page), each page dropped after use.
  for (let from = 0; from < pods; from += 500) {
    const page = generatePods(from, Math.min(500, pods - from));
    tracker.listPage(page, true);
  }
  tracker.endList(undefined);
  gc();
  const heapBytes = process.memoryUsage().heapUsed - base;
  if (tracker.size !== pods) throw new Error(`tracker holds ${tracker.size} of ${pods} pods`);
  return { pods, heapBytes };
}

const SUFFIX = 'bcdfghjklmnpqrstvwxz2456789';

/** Pods as a Deployment's ReplicaSet creates them (owner reference, hash label, status), 20 per Deployment. */
function generatePods(from: number, count: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = from; i < from + count; i += 1) {
    const deployment = `svc-${Math.floor(i / 20)}`;
    const hash = `7d9f8c${(i % 7) + 2}b5`;
    const suffix = [0, 1, 2, 3, 4]
      .map((k) => SUFFIX[Math.floor(i / SUFFIX.length ** k) % SUFFIX.length])
      .join('');
    out.push({
      metadata: {
        name: `${deployment}-${hash}-${suffix}`,
        namespace: `team-${Math.floor(i / 1000)}`,
        uid: `0b6c${String(i).padStart(8, '0')}-4e0f-4f5e-9a51-7c7d1c4e2a10`,
        labels: { app: deployment, 'pod-template-hash': hash },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${deployment}-${hash}`, controller: true },
        ],
      },
      spec: { nodeName: `node-${String((i % 4999) + 1).padStart(4, '0')}` },
      status: {
        phase: 'Running',
        containerStatuses: [{ name: 'app', restartCount: i % 3, ready: true, state: { running: {} } }],
      },
    });
  }
  return out;
}

/**
 * Two worker processes (`workers/main.ts`) on the same simulated cluster: one
 * watching every namespace (one cluster-wide pair of streams), one without the
 * early warning. RSS is read once both streams are open and the first list is in.
 */
export async function workerMemory(nodes: number, pods: number): Promise<WorkerMemory> {
  const stack = await startStack({
    sim: { scenario: generateScaleScenario({ nodes, pods }), timeScale: 50 },
    workers: 0,
  });
  try {
    await stack.sim.settle();
    const plain = await stack.startWorker();
    const watching = await stack.startWorker({
      ROLLOUT_DOCTOR_WATCH_NAMESPACES: '*',
      ROLLOUT_DOCTOR_WATCH_INTERVAL_SECONDS: '3600',
    });
    const clusterWatch = (resource: string): boolean =>
      stack.sim.requests.some((r) => r.verb === 'watch' && r.resource === resource && !r.namespace);
    await firstTime(() => clusterWatch('pods') && clusterWatch('events'), 300_000);
    // Let the first list's garbage go: sample for 3 s and keep the last reading.
    const until = Date.now() + 3_000;
    await firstTime(() => Date.now() > until, 10_000);
    const listed = stack.sim.list('Pod').length;
    return {
      nodes,
      pods: listed,
      watchingMb: watching.memory().rssMb,
      watchingPeakMb: watching.memory().peakMb,
      plainMb: plain.memory().rssMb,
      podsTracked: listed,
    };
  } finally {
    await stack.close();
  }
}

export async function runEarlyWarningBench(options: { runs?: number } = {}): Promise<EarlyWarningBench> {
  const runs = options.runs ?? 3;
  const dir = await mkdtemp(join(tmpdir(), 'rd-bench-ew-'));
  try {
    const crashFile = join(dir, 'crashloop-rollout.yaml');
    const { readFile } = await import('node:fs/promises');
    const seed = await readFile('sim/scenarios/crashloop-node.yaml', 'utf8');
    await writeFile(
      crashFile,
      seed.replace('      image: shop/checkout\n', '      image: shop/checkout:2.5\n'),
    );
    const scaleFile = join(dir, 'scale.json');
    await writeFile(
      scaleFile,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: generateScaleScenario({ nodes: 1000, pods: 20_000 }),
      }),
    );
    const gpu = { file: 'sim/scenarios/gpu-deadlock.yaml', label: 'seed (10 nodes)', namespace: 'vision' };
    const crash = { file: crashFile, label: 'seed (3 nodes)', namespace: 'shop' };
    const detections: Detection[] = [];
    for (let i = 0; i < runs; i += 1) {
      detections.push(await detect('deadlock', 'watch', gpu));
      detections.push(await detect('crash', 'watch', crash));
    }
    // Every namespace, one cluster-wide watch over 1,000 nodes and 20,000 pods.
    detections.push(
      await detect('deadlock', 'watch', {
        file: scaleFile,
        label: '1,000 nodes / 20,000 pods',
        namespace: '*',
      }),
    );
    detections.push(await detect('deadlock', 'scan', gpu));
    detections.push(await detect('crash', 'scan', crash));
    const memory = [1_000, 10_000, 100_000].map(trackerMemory);
    const workers = await workerMemory(1000, 20_000);
    return { detections, memory, workers };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

export function earlyWarningSection(r: EarlyWarningBench): Section {
  const pick = (incident: Detection['incident'], mode: Detection['mode'], cluster?: string): Detection[] =>
    r.detections.filter(
      (d) => d.incident === incident && d.mode === mode && (cluster === undefined || d.cluster === cluster),
    );
  const seedWatchDeadlock = pick('deadlock', 'watch', 'seed (10 nodes)');
  const seedWatchCrash = pick('crash', 'watch');
  const scanDeadlock = pick('deadlock', 'scan')[0];
  const scanCrash = pick('crash', 'scan')[0];
  const scale = pick('deadlock', 'watch', '1,000 nodes / 20,000 pods')[0];
  const alert = `KubeDeploymentRolloutStuck: ~${ALERT_MINUTES} min`;
  const rows: Section['rows'] = [
    {
      figure: `image patch → deadlock thread on the stand-in, watch (${seedWatchDeadlock.length} runs)`,
      median: seconds(median(seedWatchDeadlock.map((d) => d.fromPatchMs))),
      comparison: `periodic scan every ${SCAN_INTERVAL_SECONDS} s: ${scanDeadlock ? seconds(scanDeadlock.fromPatchMs) : '—'} (1 run); ${alert}`,
      target: '—',
      met: undefined,
    },
    {
      figure: 'first FailedScheduling event → deadlock thread, watch',
      median: seconds(median(seedWatchDeadlock.map((d) => d.fromSignalMs))),
      comparison: `periodic scan: ${scanDeadlock ? seconds(scanDeadlock.fromSignalMs) : '—'}`,
      target: '< 10 s',
      met: median(seedWatchDeadlock.map((d) => d.fromSignalMs)) < 10_000,
    },
    {
      figure: `first crash → CrashLoopOnNode thread, watch (${seedWatchCrash.length} runs)`,
      median: seconds(median(seedWatchCrash.map((d) => d.fromSignalMs))),
      comparison: `periodic scan: ${scanCrash ? seconds(scanCrash.fromSignalMs) : '—'}; KubePodCrashLooping: ~15 min (its \`for\`)`,
      target: '< 10 s',
      met: median(seedWatchCrash.map((d) => d.fromSignalMs)) < 10_000,
    },
    {
      figure: 'watches held by the watching worker',
      median: String(median(r.detections.filter((d) => d.mode === 'watch').map((d) => d.watchesHeld))),
      comparison:
        'pods + warning events: one pair cluster-wide (`*` or several namespaces) or per namespace; independent of Deployments and nodes',
      target: '—',
      met: undefined,
    },
    {
      figure: 'API requests per detection (deadlock, seed cluster): watch stream / diagnosis',
      median: `${median(seedWatchDeadlock.map((d) => d.requests.watchOrList))} / ${median(seedWatchDeadlock.map((d) => d.requests.diagnosis))}`,
      comparison: scale
        ? `1,000 nodes / 20,000 pods: ${scale.requests.watchOrList} / ${scale.requests.diagnosis} (patch → thread ${seconds(scale.fromPatchMs)}, first event → thread ${seconds(scale.fromSignalMs)})`
        : '—',
      target: '—',
      met: undefined,
    },
    ...r.memory.map((m) => ({
      figure: `heap of the watch's pod records, ${m.pods.toLocaleString('en-US')} pods`,
      median: `${(m.heapBytes / 1024 / 1024).toFixed(1)} MB`,
      comparison: `${Math.round(m.heapBytes / m.pods)} bytes per pod`,
      target: m.pods === 100_000 ? '< 64 MB' : '—',
      met: m.pods === 100_000 ? m.heapBytes < 64 * 1024 * 1024 : undefined,
    })),
  ];
  const w = r.workers;
  if (w) {
    const perPod = ((w.watchingMb - w.plainMb) * 1024 * 1024) / Math.max(1, w.pods);
    rows.push({
      figure: `worker process RSS watching every namespace, ${w.nodes.toLocaleString('en-US')} nodes / ${w.pods.toLocaleString('en-US')} pods (1 run)`,
      median: `${w.watchingMb} MB (peak ${w.watchingPeakMb} MB)`,
      comparison: `worker without the early warning: ${w.plainMb} MB; extrapolated to 100,000 pods from the difference (${Math.round(perPod)} bytes per pod): ${Math.round(w.plainMb + (perPod * 100_000) / 1024 / 1024)} MB`,
      target: '—',
      met: undefined,
    });
  }
  return {
    title: 'Early warning: from the incident to the Slack thread',
    rows,
    notes: [
      'The app as the README quick start configures it (ROLLOUT_DOCTOR_ALERT_CHANNEL, no ALERTMANAGER_TOKEN) and a worker with ROLLOUT_DOCTOR_WATCH_NAMESPACES, in this process, with Redis, the simulator at time scale 1 (real scheduler and kubelet delays, real 10 s back-off) and the Slack stand-in. The time ends when the thread root is on the stand-in.',
      `Deadlock: gpu-deadlock.yaml, the tracker's image patched. Crash: crashloop-node.yaml with its crash rule narrowed to the new version (2.4.1 runs everywhere, 2.5.0 crashes on node-b), the image patched; the time starts at the first restart on node-b. Watch mode: the safety-net scan ran once at start, before the incident; scan mode: no watch, a scan every ${SCAN_INTERVAL_SECONDS} s (the previous default), so its time depends on where the incident falls in the interval (on average half of it plus a scan and a diagnosis).`,
      `Alert comparison: KubeDeploymentRolloutStuck fires after progressDeadlineSeconds (600 s) plus its \`for: 15m\`, then scrape, evaluation and Alertmanager group_wait: about ${ALERT_MINUTES} minutes into a deadlocked rollout.`,
      'Requests per detection: what the simulator received between the patch (deadlock) or the first crash (crash) and the thread: watch-stream re-opens and lists of pods and events ("watch stream"), and everything else, the diagnosis reads ("diagnosis"). The watch itself adds no request per detection once open; the diagnosis reads per eligible node (see "One diagnosis end to end" for its growth with nodes).',
      'Memory: the slim records (owner Deployment, restart total, back-off flag, signals raised) of pods of Deployments, fed with generated pod objects (5,000 nodes, 20 pods per Deployment) page by page as the stream does, heap measured after a full GC against the heap before; nodes are not watched and events are never stored. The 100,000-pod figure is measured, not extrapolated. The worker-process row runs two real worker processes (through tsx) on the simulator at 1,000 nodes / 20,000 pods; its peak includes the safety-net scan of every Deployment at start; its 100,000-pod figure is extrapolated linearly from the measured difference and labelled so.',
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runEarlyWarningBench({ runs: Number(process.env['BENCH_RUNS'] ?? '3') });
  console.log(JSON.stringify(result, null, 2));
  const section = earlyWarningSection(result);
  for (const row of section.rows)
    console.log(`| ${row.figure} | ${row.median} | ${row.comparison} | ${row.target} |`);
}
