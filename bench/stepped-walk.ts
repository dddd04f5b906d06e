/**
 * Wall-clock time of a stepped scale-old-replicaset walk (3 replicas) on the
 * simulator (timeScale 50), with the executor's default pacing: how long the walker
 * itself adds on top of the pods becoming Ready. The comparison, in the same run:
 * the watch of the new ReplicaSet refused (403), so only the 2 s re-read wakes a step.
 *
 *   npx tsx bench/stepped-walk.ts [runs]     (also a section of `npm run bench`)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectSnapshot } from '../src/kube/read/collector.js';
import { applyPlan } from '../src/apply/apply-plan.js';
import { diagnose } from '../src/engine/diagnose.js';
import { EDGE, deadlockedIngress, rolledOut } from '../test/support/edge-ingress.js';
import type { Section } from './report.js';

export interface SteppedWalkResult {
  /** Milliseconds from the approved apply to the rollout complete, per run. */
  watchMs: number[];
  /** The same with the ReplicaSet watch refused: the re-read every 2 s only. */
  pollMs: number[];
}

async function walkOnce(dir: string, refuseWatch: boolean): Promise<number> {
  const { sim, client } = await deadlockedIngress(dir);
  try {
    const plan = diagnose(await collectSnapshot(client, EDGE)).remediations.find(
      (p) => p.kind === 'scale-old-replicaset' && p.replicaSet?.stepped,
    );
    if (!plan) throw new Error('no stepped plan');
    if (refuseWatch) sim.addFault({ match: { verb: 'watch', resource: 'replicasets' }, status: 403 });
    const started = performance.now();
    const result = await applyPlan(client, plan);
    await sim.waitFor(() => rolledOut(sim), 60_000);
    if (result.status !== 'applied') throw new Error(`walk ended ${result.status}`);
    return performance.now() - started;
  } finally {
    await sim.close();
  }
}

export async function runSteppedWalkBench(runs = 3): Promise<SteppedWalkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'stepped-bench-'));
  const result: SteppedWalkResult = { watchMs: [], pollMs: [] };
  try {
    for (let run = 0; run < runs; run += 1) {
      result.watchMs.push(await walkOnce(dir, false));
      result.pollMs.push(await walkOnce(dir, true));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export function steppedWalkSection(r: SteppedWalkResult): Section {
  const watch = Math.round(median(r.watchMs));
  const poll = Math.round(median(r.pollMs));
  return {
    title: `Stepped scale-old-replicaset, 3 replicas on the simulator (${r.watchMs.length} runs each)`,
    rows: [
      {
        figure: 'approved apply to rollout complete, woken by the ReplicaSet watch',
        median: `${watch} ms`,
        comparison: `watch refused, re-read every 2 s: ${poll} ms`,
        target: 'faster than the re-read',
        met: watch < poll,
      },
    ],
    notes: [
      `Per run, watch: ${r.watchMs.map((t) => Math.round(t)).join(', ')} ms; re-read only: ${r.pollMs.map((t) => Math.round(t)).join(', ')} ms.`,
      'Each run starts a simulator (timeScale 50) with an ingress on three edge nodes whose hostPort keeps the surge pod Pending, diagnoses it and applies the stepped plan with the executor defaults (bench/stepped-walk.ts).',
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await runSteppedWalkBench(Number(process.argv[2] ?? 3));
  console.log(
    `stepped walk, 3 replicas: watch ${r.watchMs.map((t) => t.toFixed(0)).join(', ')} ms (median ${median(r.watchMs).toFixed(0)}); re-read only ${r.pollMs.map((t) => t.toFixed(0)).join(', ')} ms (median ${median(r.pollMs).toFixed(0)})`,
  );
}
