/**
 * The simulator at scale (1,000 nodes, 20,000 pods): how long it takes to load and
 * settle, and how fast it serves label-selected pod lists. These were wall-clock
 * assertions in test/sim/scale.test.ts, where they depended on the machine's load;
 * the test keeps the facts (counts, untouched background workloads) and the timings
 * are measured here.
 */
import { startSimulator } from '../sim/index.js';
import { generateScaleScenario } from '../sim/scale.js';
import type { Pod } from '../src/diagnosis/k8s.js';
import type { Section } from './report.js';

export interface SimScaleResult {
  loadMs: number[];
  listMs: number[];
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export async function runSimScaleBench(
  options: { runs?: number; lists?: number } = {},
): Promise<SimScaleResult> {
  const result: SimScaleResult = { loadMs: [], listMs: [] };
  for (let run = 0; run < (options.runs ?? 3); run += 1) {
    const objects = generateScaleScenario({ nodes: 1000, pods: 20_000 });
    const started = performance.now();
    const sim = await startSimulator({ scenario: objects, timeScale: 50 });
    try {
      await sim.waitFor(
        () => (sim.list('Pod', 'vision') as Pod[]).some((p) => p.status?.phase === 'Running'),
        60_000,
      );
      await sim.settle();
      result.loadMs.push(performance.now() - started);
      for (let i = 0; i < (options.lists ?? 10); i += 1) {
        const t0 = performance.now();
        await (
          await fetch(`${sim.url}/api/v1/namespaces/vision/pods?labelSelector=app%3Dvision-object-tracker`)
        ).json();
        await (await fetch(`${sim.url}/api/v1/pods?labelSelector=app%3Dsvc-7`)).json();
        result.listMs.push(performance.now() - t0);
      }
    } finally {
      await sim.close();
    }
  }
  return result;
}

export function simScaleSection(result: SimScaleResult): Section {
  const load = Math.round(median(result.loadMs));
  const list = Math.round(median(result.listMs) * 10) / 10;
  return {
    title: 'Simulator at 1,000 nodes / 20,000 pods',
    rows: [
      {
        figure: 'load and settle',
        median: `${load} ms`,
        comparison: '—',
        target: '< 20,000 ms',
        met: load < 20_000,
      },
      {
        figure: 'two label-selected pod lists (one namespaced, one cluster-wide)',
        median: `${list} ms`,
        comparison: '—',
        target: '< 500 ms',
        met: list < 500,
      },
    ],
    notes: [
      `runSimScaleBench() from bench/sim-scale.ts: ${result.loadMs.length} loads, ${result.listMs.length} list pairs.`,
    ],
  };
}
