/**
 * The forward model: its time on the analyzer benchmark's snapshot (500 pods
 * on 200 GPU nodes, surge-deadlocked: the run as it is and the run without the old pods,
 * which places 500 new pods), and the agreement of generated mid-rollout states with the
 * simulator run forward (`npm run verify:states` runs more).
 *
 * Run: npx tsx bench/forward-model.ts
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { AnalysisContext } from '../src/diagnosis/analysis-context.js';
import { runForward } from '../src/diagnosis/forward/run.js';
import { judgeSeed, tally } from '../test/support/state-judge.js';
import { buildBenchSnapshot } from './analyzers.js';
import type { Section } from './report.js';

const RUNS = 21;
const STATES = 500;

export interface ForwardBench {
  asIsMs: number;
  withoutOldMs: number;
  states: ReturnType<typeof tally>;
  statesSeconds: number;
}

export function runForwardBench(): ForwardBench {
  const base = buildBenchSnapshot();
  const asIs: number[] = [];
  const withoutOld: number[] = [];
  for (let i = 0; i < RUNS + 2; i += 1) {
    const ctx = new AnalysisContext({ ...base });
    let start = performance.now();
    const a = runForward(ctx, 'as-is');
    const t1 = performance.now() - start;
    start = performance.now();
    const b = runForward(ctx, 'without-old');
    const t2 = performance.now() - start;
    if (a.result !== 'blocked' || b.result !== 'completes')
      throw new Error(`bench snapshot: expected blocked / completes, got ${a.result} / ${b.result}`);
    if (i >= 2) {
      asIs.push(t1);
      withoutOld.push(t2);
    }
  }
  const started = performance.now();
  const results = Array.from({ length: STATES }, (_, i) => judgeSeed(1 + i));
  return {
    asIsMs: median(asIs),
    withoutOldMs: median(withoutOld),
    states: tally(results),
    statesSeconds: (performance.now() - started) / 1000,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? Number.NaN) * 100) / 100;
}

export function forwardSection(r: ForwardBench): Section {
  const s = r.states;
  const pct = s.judged === 0 ? 0 : Math.round((1000 * s.agree) / s.judged) / 10;
  return {
    title: 'Forward model: "can never finish" run forward',
    rows: [
      {
        figure: `as it is, 500 pods / 200 nodes (median of ${RUNS})`,
        median: `${r.asIsMs} ms`,
        comparison: '—',
        target: '—',
        met: undefined,
      },
      {
        figure: `without the old pods: 500 new pods placed (median of ${RUNS})`,
        median: `${r.withoutOldMs} ms`,
        comparison: '—',
        target: '—',
        met: undefined,
      },
      {
        figure: `generated states agreeing with the simulator run forward (seeds 1..${STATES})`,
        median: `${s.agree} of ${s.judged} (${pct}%)`,
        comparison: `${s.completed} finished, ${s.judged - s.completed} never did; ${s.skipped} skipped (no steady state); ${Math.round(r.statesSeconds)} s`,
        target: '100%',
        met: s.agree === s.judged,
      },
      {
        figure: 'false deadlocks / harmful plans / missed deadlocks / failed fixes',
        median: `${s.falseDeadlocks} / ${s.harmfulPlans} / ${s.missedDeadlocks} / ${s.fixFailed}`,
        comparison: '—',
        target: '0 / 0 / 0 / 0',
        met: s.falseDeadlocks + s.harmfulPlans + s.missedDeadlocks + s.fixFailed === 0,
      },
    ],
    notes: [
      'runForwardBench() from bench/forward-model.ts: runForward() on the analyzer benchmark snapshot (its time is part of the diagnose() figure above), then judgeSeed() (test/support/state-judge.ts) on generated states built in the stepped simulator.',
      'What `npm test` judges (test/sim/generated-states.test.ts, sized so the whole suite stays under 5 minutes on a quiet 2-core machine; 2026-11-26): 100 states (seeds 1000..1099), 100 StatefulSet (1..100), 80 Argo Rollout (1..80), 60 with placement rules (Deployment and StatefulSet alternating, 1..60) and 30 in motion (Deployment, StatefulSet, Rollout in turn, 1..30), plus the seeds each fix was found by; about 40 s at load 20 on 2 cores, before: 150 / 150 / 100 / 100 / 45. The larger runs are `npm run verify:states -- --seed 1 --count 2000` (its default count) and the families below, thousands of states each.',
    ],
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = runForwardBench();
  for (const row of forwardSection(r).rows) console.log(`${row.figure}: ${row.median} (${row.comparison})`);
}
