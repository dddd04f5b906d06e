/** Turns each benchmark's result into report rows (figure, median, comparison, target, met). */
import type { FloodResult } from './alert-flood.js';
import type { AlertBenchResult } from './alerts.js';
import type { E2eBench, SizeFigures } from './e2e-diagnosis.js';
import type { ManualBench } from './kubectl-manual.js';
import type { Section } from './report.js';
import { MAX_DIAGNOSE_READS } from './lib/targets.js';
import { WARM_UP_SECONDS, type AckBench } from './slack-ack.js';
import { round2 } from './lib/stats.js';

const ms = (v: number): string => `${round2(v)} ms`;

/** Slack acknowledgement latency and throughput, real app vs bare Bolt. */
export function ackSection(r: AckBench, runs: number): Section {
  return {
    title: `Slack acknowledgement at ${r.rate} signed slash commands per second (${r.seconds} s, ${runs} runs)`,
    rows: [
      {
        figure: 'ack latency p50, real app',
        median: ms(r.appP50),
        comparison: `bare Bolt app: ${ms(r.bareP50)}`,
        target: '—',
        met: undefined,
      },
      {
        figure: 'ack latency p99, real app',
        median: ms(r.appP99),
        comparison: `bare Bolt app: ${ms(r.bareP99)}`,
        target: '< 50 ms',
        met: r.appP99 < 50,
      },
      {
        figure: 'p99 ratio real app / bare Bolt, every command queued',
        median: `${r.ratio}x`,
        comparison: `${ms(r.appP99)} / ${ms(r.bareP99)}`,
        target: '<= 1.25x',
        met: r.ratio <= 1.25,
      },
      {
        figure: 'p99 ratio real app / bare Bolt, one person flooding (refused past the budget)',
        median: `${r.refused.ratio}x`,
        comparison: `${ms(r.refused.appP99)} / ${ms(r.refused.bareP99)}`,
        target: '<= 1.25x',
        met: r.refused.ratio <= 1.25,
      },
      {
        figure: 'CPU per command, real app (ack, announcement, subscription) / bare Bolt (ack)',
        median: `${r.appCpuMsPerCommand} ms`,
        comparison: `bare Bolt app: ${r.bareCpuMsPerCommand} ms (${round2(r.appCpuMsPerCommand / Math.max(r.bareCpuMsPerCommand, 0.001))}x); load-independent, unlike p99`,
        target: '—',
        met: undefined,
      },
      {
        figure: 'young-generation collections (scavenges) per 1,000 commands, and their mean pause',
        median: `${r.scavenges.appPer1000} (${ms(r.scavenges.appMeanMs)})`,
        comparison: `bare Bolt app: ${r.scavenges.barePer1000} (${ms(r.scavenges.bareMeanMs)}); each pause stops the event loop, so an ack arriving then waits: the p99 tail`,
        target: '—',
        met: undefined,
      },
      {
        figure: 'ack latency p99, real app with its heap flags vs Node defaults (own rounds)',
        median: ms(r.heapFlags.tunedP99),
        comparison: `same app, default heap settings: ${ms(r.heapFlags.defaultsP99)}`,
        target: 'lower than defaults',
        met: r.heapFlags.tunedP99 < r.heapFlags.defaultsP99,
      },
      {
        figure: 'throughput (acked per second)',
        median: `${r.appThroughput}/s`,
        comparison: `bare Bolt app: ${r.bareThroughput}/s`,
        target: `${r.rate}/s offered`,
        met: r.appThroughput >= r.rate * 0.95,
      },
    ],
    notes: [
      'Open-loop load from the benchmark process (node:http, keep-alive): request i leaves at i/rate whatever earlier answers do, so a slow server shows up as latency, not as a lower offered rate.',
      'Every real-app command names a different Deployment: each one is validated, takes its budget, is signed and enqueued in Redis (BullMQ) and acked, then announced with chat.postMessage on the stand-in (a process of its own, so answering those posts does not slow the load generator for the real app only). The budgets are raised for it (one bench person sends 200 a second); the flood row runs an app with the default budgets, where every command after the tenth of the minute is refused privately and queues nothing. Both apps are compiled with the build settings and run with plain node, as in production: the real app with its heap flags (src/app/node-flags.ts) and logging at info, the bare app with the defaults of node.',
      `Both apps first take ${WARM_UP_SECONDS} s of the same load (not counted), so the figures are the steady state rather than V8 compiling a freshly started process (with 5 s both apps were still getting faster from round to round).`,
      'Before it acks, the real app waits for two Redis round trips that decide its answer (the command budget, then the queued job: nothing may run that the answer does not announce), which bare Bolt does not make; the announcement and its subscription come after the ack, on the same event loop.',
      `Per run, real app p99: ${r.app.map((x) => ms(x.p99Ms)).join(', ')}; bare: ${r.bare.map((x) => ms(x.p99Ms)).join(', ')}. Flood rounds, real app: ${r.refused.app.map((x) => ms(x.p99Ms)).join(', ')}; bare: ${r.refused.bare.map((x) => ms(x.p99Ms)).join(', ')}.`,
      `Heap flags (src/app/node-flags.ts: fixed 16 MB semi-spaces, 192 MB initial heap), measured in rounds of their own that alternate the app with a second copy started on Node's defaults: p99 per run with the flags ${r.heapFlags.tuned.map((x) => ms(x.p99Ms)).join(', ')}; with the defaults ${r.heapFlags.defaults.map((x) => ms(x.p99Ms)).join(', ')}. Peak RSS of the app: ${r.heapFlags.tunedPeakMb} MB with the flags, ${r.heapFlags.defaultsPeakMb} MB with the defaults.`,
    ],
  };
}

function sizeLabel(s: SizeFigures): string {
  return `${s.nodes.toLocaleString('en-US')} nodes / ${s.pods.toLocaleString('en-US')} pods`;
}

/** One diagnosis end to end, its requests, and the same as the cluster grows. */
export function e2eSection(r: E2eBench, latencyMs: number): Section {
  const small = r.sizes[0];
  if (!small) return { title: 'One diagnosis end to end', rows: [], notes: ['no result'] };
  const runs = small.runs[0];
  const rows: Section['rows'] = [
    {
      figure: `one diagnosis, command received → result posted (${sizeLabel(small)}, ${latencyMs} ms per API request)`,
      median: ms(small.medianMs),
      comparison: `floor ${small.floorMs} ms (${small.floorMs / latencyMs} dependent requests × ${latencyMs} ms); observed sequential depth ${small.medianDepth} (${small.medianDepth * latencyMs} ms)`,
      target: `<= floor + 150 ms (${small.floorMs + 150} ms)`,
      met: small.medianMs <= small.floorMs + 150,
    },
    {
      figure: 'API requests per diagnosis (log tails aside)',
      median: `${small.medianCollectRequests} reads to diagnose + ${small.medianReadRequests - small.medianCollectRequests} for the dry runs of ${runs?.dryRunRequests ?? 0} plans`,
      comparison: `total ${small.medianRequests}, of which ${runs?.logRequests ?? 0} log tails and ${runs?.dryRunRequests ?? 0} dry-run writes (each after re-reading its target)`,
      // 8 before the collector read the namespace's PodDisruptionBudgets and HorizontalPodAutoscalers.
      target: `<= ${MAX_DIAGNOSE_READS} reads to diagnose`,
      met: small.medianCollectRequests <= MAX_DIAGNOSE_READS,
    },
  ];
  for (const size of r.sizes.slice(1)) {
    rows.push({
      figure: `same diagnosis at ${sizeLabel(size)}`,
      median: `${ms(size.medianMs)}, ${size.medianRequests} requests`,
      comparison: `${sizeLabel(small)}: ${ms(small.medianMs)}, ${small.medianRequests} requests (×${round2(size.medianMs / small.medianMs)} time, ×${round2(size.medianRequests / small.medianRequests)} requests)`,
      target: '< 1.5x growth in time and requests',
      met: size.medianMs / small.medianMs < 1.5 && size.medianRequests / small.medianRequests < 1.5,
    });
  }
  const biggest = r.sizes.at(-1) ?? small;
  rows.push({
    figure: `worker RSS after the diagnoses at ${sizeLabel(biggest)} (peak)`,
    median: `${biggest.workerPeakMb} MB`,
    comparison: r.sizes
      .map((s) => `${sizeLabel(s)}: ${s.workerPeakMb} MB (idle ${s.workerIdleMb} MB)`)
      .join('; '),
    target: '< 200 MB',
    met: biggest.workerPeakMb < 200,
  });
  return {
    title: `One diagnosis end to end, and as the cluster grows (${latencyMs} ms added per API request)`,
    rows,
    notes: [
      'Path: signed slash command → app (child process) → Redis → worker (`workers/main.ts`, child process) → simulator → notify queue → chat.update on the Slack stand-in. Time runs from sending the command to the stand-in recording the result.',
      "The cluster is bench/collector.ts's (seed incident A mid-deadlock plus filler pods, Deployments and events in 50 other namespaces), served by the simulator without controllers.",
      `Floor: the collector's ${small.floorMs / latencyMs - 2} dependent rounds (Deployment → ReplicaSets/pods/events → nodes) plus one dry run (re-read, then PATCH with dryRun=All); plans are independent and the worker dry-runs them side by side. Observed depth counts requests that started only after the previous one finished.`,
      `Worker memory is VmHWM/VmRSS of the worker process from /proc (idle figure taken right after start). The app and the worker run compiled (bench/tsconfig.bench.json = the build settings) with plain node, as in the container image${small.tsxWorkerIdleMb !== undefined ? `; the same worker run from source through tsx (development) takes ${small.tsxWorkerIdleMb} MB idle` : ''}.`,
      ...r.sizes.map(
        (s) => `${sizeLabel(s)}: runs ${s.runs.map((x) => `${x.ms} ms/${x.requests} req`).join(', ')}.`,
      ),
    ],
  };
}

/** kubectl by hand vs one rollout-doctor diagnosis. */
export function manualSection(m: ManualBench, doctor: SizeFigures | undefined): Section {
  const session = m.sessions[0];
  return {
    title: 'The manual alternative: kubectl on the same simulator',
    rows: [
      {
        figure: `${m.commandCount} kubectl commands to reach the verdict: API requests`,
        median: `${m.medianRequests}`,
        comparison: doctor
          ? `rollout-doctor: ${doctor.medianRequests} (×${round2(m.medianRequests / doctor.medianRequests)})`
          : '—',
        target: '—',
        met: undefined,
      },
      {
        figure: `${m.commandCount} kubectl commands: wall time of the commands alone`,
        median: ms(m.medianMs),
        comparison: doctor
          ? `rollout-doctor end to end: ${ms(doctor.medianMs)} (×${round2(m.medianMs / doctor.medianMs)})`
          : '—',
        target: '—',
        met: undefined,
      },
    ],
    notes: [
      `Commands (real kubectl ${'on PATH'}, fresh discovery cache per session, 20 ms per request): ${(session?.commands ?? []).map((c) => `\`${c.argv.join(' ')}\` (${c.requests} req, ${c.ms} ms)`).join('; ')}.`,
      'This counts machine time only; the engineer still has to read six outputs and work out that the surge pod waits for the GPU the old pod holds.',
    ],
  };
}

/** Alert storm through the real Alertmanager route (bench/alerts.ts). */
export function alertSection(runs: AlertBenchResult[]): Section {
  const med = (f: (r: AlertBenchResult) => number): number => {
    const sorted = runs.map(f).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  };
  const first = runs[0];
  const jobs = runs.map((r) => r.diagnosisJobs);
  return {
    title: `Alert storm: ${first?.notifications ?? 0} Alertmanager notifications for ${first?.workloads ?? 0} workloads (${runs.length} run${runs.length === 1 ? '' : 's'})`,
    rows: [
      {
        figure: 'webhook latency p99',
        median: ms(med((r) => r.p99Ms)),
        comparison: `p50 ${ms(med((r) => r.p50Ms))}, max ${ms(med((r) => r.maxMs))}; sent in ${ms(med((r) => r.sendMs))}`,
        target: '< 50 ms',
        met: med((r) => r.p99Ms) < 50,
      },
      {
        figure: 'diagnosis jobs created',
        median: `${med((r) => r.diagnosisJobs)}`,
        comparison: `workloads: ${first?.workloads ?? 0}; per run ${jobs.join(', ')}; non-2xx answers ${runs.map((r) => r.non2xx).join(', ')}`,
        target: 'exactly one per workload',
        met: runs.every((r) => r.diagnosisJobs === r.workloads),
      },
      {
        figure: 'alert thread roots posted',
        median: `${med((r) => r.rootMessages)}`,
        comparison: `workloads: ${first?.workloads ?? 0}`,
        target: 'at most one per workload',
        met: runs.every((r) => r.rootMessages <= r.workloads),
      },
    ],
    notes: [
      'runAlertBench() from bench/alerts.ts: the app in-process with its Redis and notify consumer; the storm is offered open-loop at an even rate over 55 s (at most 256 in flight, node:http keep-alive senders in the same process), latency measured from when each request was due; a counting worker on the diagnose queue.',
      `1-minute load average at the end of each run: ${runs.map((r) => r.loadAverage.toFixed(1)).join(', ')} (the p99 tail tracks CPU contention on a shared machine).`,
    ],
  };
}

/** One flood of made-up workloads and a person's command during it. */
export function floodSection(r: FloodResult): Section {
  const families = Object.entries(r.redisKeysByFamily)
    .map(([family, n]) => `${family} ${n}`)
    .join(', ');
  return {
    title: `Alert flood: ${r.workloads} made-up workloads in ${r.notifications} notifications at once`,
    rows: [
      {
        figure: 'alert threads opened (roots in the alert channel, summaries included)',
        median: `${r.threadsOpened}`,
        comparison: 'before the caps: 3,000 threads',
        target: '<= per-minute cap + one summary per notification and minute',
        met: r.threadsOpened <= 60 + r.notifications + 1,
      },
      {
        figure: 'Slack posts made',
        median: `${r.slackPosts}`,
        comparison: 'before the caps: about 6,000',
        target: '—',
        met: undefined,
      },
      {
        figure: 'diagnoses run for the flood',
        median: `${r.diagnoseJobs}`,
        comparison: 'before the caps: 3,000',
        target: '<= 60 (ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE)',
        met: r.diagnoseJobs <= 60,
      },
      {
        figure: 'Redis keys after the flood settled',
        median: `${r.redisKeys}`,
        comparison: `before the caps: about 28,000; used memory ${Math.round(r.redisUsedMemoryBytes / 1024)} KiB`,
        target: '—',
        met: undefined,
      },
      {
        figure: "a person's /rollout-doctor result during the flood",
        median: ms(r.commandResultMs),
        comparison: `same command with no flood: ${ms(r.quietCommandResultMs)}`,
        target: '< 5,000 ms',
        met: r.commandResultMs < 5_000,
      },
    ],
    notes: [
      'runFloodBench() from bench/alert-flood.ts: the app and worker runtimes in-process (fake cluster side), a private redis-server, the Slack stand-in; 30 notifications of 100 workloads sent at once while the command is issued in another channel.',
      `Redis keys by family: ${families}.`,
    ],
  };
}

/** Analyzer throughput on the 500-pod / 200-node snapshot (bench/analyzers.ts). */
export function analyzerSection(rows: { name: string; value: number; unit: string }[]): Section {
  const wall = rows.find((r) => r.name.includes('wall (median'));
  return {
    title: 'Analyzers on a 500-pod, 200-node snapshot',
    rows: rows.map((r) => ({
      figure: r.name,
      median: `${r.value} ${r.unit}`,
      comparison: r === wall ? `${round2(1000 / r.value)} diagnoses per second on one core` : '—',
      target: r === wall ? '< 50 ms' : '—',
      met: r === wall ? r.value < 50 : undefined,
    })),
    notes: [
      'runAnalyzerBench() from bench/analyzers.ts: diagnose() on an in-memory snapshot, no I/O; 2 warm-up runs.',
    ],
  };
}
