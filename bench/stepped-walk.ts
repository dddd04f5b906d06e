/**
 * Wall-clock time of a stepped scale-old-replicaset walk (3 replicas) on the
 * simulator (timeScale 50), with the executor's default pacing: how long the walker
 * itself adds on top of the pods becoming Ready.
 *
 *   npx tsx bench/stepped-walk.ts [runs]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectSnapshot } from '../src/kube/collector.js';
import { applyPlan } from '../src/kube/executor.js';
import { diagnose } from '../src/remediation/diagnose.js';
import { EDGE, deadlockedIngress, rolledOut } from '../test/support/edge-ingress.js';

const runs = Number(process.argv[2] ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'stepped-bench-'));
const times: number[] = [];
try {
  for (let run = 0; run < runs; run += 1) {
    const { sim, client } = await deadlockedIngress(dir);
    const plan = diagnose(await collectSnapshot(client, EDGE)).remediations.find(
      (p) => p.kind === 'scale-old-replicaset' && p.replicaSet?.stepped,
    );
    if (!plan) throw new Error('no stepped plan');
    const started = performance.now();
    const result = await applyPlan(client, plan);
    await sim.waitFor(() => rolledOut(sim), 60_000);
    times.push(performance.now() - started);
    if (result.status !== 'applied') throw new Error(`walk ended ${result.status}`);
    await sim.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const sorted = [...times].sort((a, b) => a - b);
console.log(
  `stepped walk, 3 replicas, ${runs} runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms; median ${(sorted[Math.floor(runs / 2)] ?? 0).toFixed(0)} ms`,
);
