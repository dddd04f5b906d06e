/**
 * `npm run verify:states -- [--seed N] [--count N] [--kind StatefulSet|Rollout] [--rules] [--motion] [--json]`: generated mid-rollout
 * states (sim/generated-states.ts), each diagnosed and then run forward on the stepped
 * simulator (test/support/state-judge.ts). Prints agreement, false deadlocks, harmful
 * plans, missed deadlocks and failed fixes, and every state that disagrees with its
 * seed (rerun one with `--seed N --count 1`). `--rules` adds placement rules to each
 * state (required pod anti-affinity, a zone pin: sim/generated-rules.ts); `--motion` a
 * rollout in motion (slow stops and starts, preemption, a tight quota, an early
 * snapshot: sim/generated-motion.ts). Exits 1 when
 * any state disagrees.
 */
import { refuse, scriptArgs } from './script-args.js';
import { judgeSeed, tally, type JudgedState } from '../test/support/state-judge.js';

const USAGE = `Usage: npm run verify:states -- [--seed N] [--count N] [--kind KIND] [--rules] [--motion] [--json]

Generated mid-rollout states, each diagnosed and then run forward on the stepped
simulator; prints agreement and every state that disagrees (exit 1 when one does).
  --seed N      the first seed (default 1); rerun one state with --seed N --count 1
  --count N     how many states (default 2000; npm test judges a few hundred,
                docs/benchmarks.md lists both)
  --kind KIND   Deployment (default), DaemonSet, StatefulSet or Rollout (Argo)
  --rules       placement rules on each state (anti-affinity, a zone pin, spread)
  --motion      a rollout in motion (slow stops and starts, preemption, a tight quota)
  --json        the tally as JSON
  -h, --help    this text
`;

const args = scriptArgs('verify:states', USAGE, {
  seed: { type: 'string', default: '1' },
  count: { type: 'string', default: '2000' },
  kind: { type: 'string' },
  rules: { type: 'boolean', default: false },
  motion: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
});
if ('exit' in args) process.exit(args.exit);
const { values } = args;
const seed = Number(values.seed);
const count = Number(values.count);
if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 1) {
  process.exit(refuse('verify:states', USAGE, '--seed and --count take whole numbers (count ≥ 1)'));
}

const KINDS = ['Deployment', 'DaemonSet', 'StatefulSet', 'Rollout'] as const;
const kind = KINDS.find((k) => k === values.kind);
if (values.kind !== undefined && !kind) {
  process.exit(refuse('verify:states', USAGE, `--kind takes one of ${KINDS.join(', ')}`));
}

const results: JudgedState[] = [];
const started = performance.now();
const progress = process.stderr.isTTY && !values.json;
for (let s = seed; s < seed + count; s += 1) {
  const result = judgeSeed(s, kind, values.rules, values.motion);
  results.push(result);
  if (result.judgement !== 'agree' && result.judgement !== 'skipped' && !values.json) {
    process.stdout.write(
      `seed ${s}: ${result.judgement} (${result.completes ? 'completes' : 'never completes'}; findings ${result.codes.join(', ') || 'none'}; plans ${result.plans.join(', ') || 'none'})\n  ${result.description}\n`,
    );
  }
  if (progress && (s - seed) % 25 === 24) process.stderr.write(`\r${s - seed + 1}/${count} states`);
}
if (progress) process.stderr.write('\n');
const t = tally(results);
const seconds = (performance.now() - started) / 1000;
if (values.json) {
  process.stdout.write(`${JSON.stringify({ seed, count, seconds, ...t }, null, 2)}\n`);
} else {
  const pct = (n: number): string => (t.judged === 0 ? '0' : ((100 * n) / t.judged).toFixed(1));
  process.stdout.write(
    [
      `${t.judged} states judged (${t.skipped} skipped: no steady state before the change), seeds ${seed}..${seed + count - 1}, ${seconds.toFixed(1)} s`,
      `agreement        ${t.agree} (${pct(t.agree)}%)`,
      `rollouts finished ${t.completed}, never finished ${t.judged - t.completed}`,
      `false deadlocks  ${t.falseDeadlocks}`,
      `harmful plans    ${t.harmfulPlans}`,
      `missed deadlocks ${t.missedDeadlocks}`,
      `fixes that failed ${t.fixFailed}`,
      '',
    ].join('\n'),
  );
}
process.exit(t.agree === t.judged ? 0 : 1);
