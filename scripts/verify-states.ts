/**
 * `npm run verify:states -- [--seed N] [--count N] [--kind StatefulSet|Rollout] [--rules] [--motion] [--json]`: generated mid-rollout
 * states (sim/generated-states.ts), each diagnosed and then run forward on the stepped
 * simulator (test/support/state-judge.ts). Prints agreement, false deadlocks, harmful
 * plans, missed deadlocks and failed fixes, and every state that disagrees with its
 * seed (rerun one with `--seed N --count 1`). `--rules` adds placement rules to each
 * state (required pod anti-affinity, a zone pin: sim/generated-rules.ts); `--motion` a
 * rollout in motion (slow stops and starts, preemption, a tight quota, an early
 * snapshot: sim/generated-motion.ts); `--guards` draws the states from the guard
 * families instead (disruption budgets, paused Deployments, crash loops that stopped or
 * crash everywhere, quotas at their limit, Argo blue-green, StatefulSet local storage on
 * a cordoned node, a DaemonSet's Pending pod elsewhere, minReadySeconds:
 * sim/generated-guards.ts; `--family NAME` only that one, or an opt-in family such as
 * crash-shared drawn from every seed), with closing figures per
 * family. Every offered plan is judged on a replay of its state (test/support/plan-judge.ts):
 * below its budget's floor, serving pods swapped for crashing ones, or nothing finished.
 * Exits 1 when any state disagrees.
 */
import { refuse, scriptArgs } from './script-args.js';
import { judgeSeed, tally, type JudgedState, type Tally } from '../test/support/state-judge.js';
import { familyOfSeed, GUARD_FAMILIES, OPT_IN_FAMILIES } from '../sim/generated-guards.js';

const USAGE = `Usage: npm run verify:states -- [--seed N] [--count N] [--kind KIND] [--rules] [--motion]
         [--guards] [--family NAME] [--json]

Generated mid-rollout states, each diagnosed and then run forward on the stepped
simulator; every offered plan is judged on a replay of its state. Prints agreement and
every state that disagrees (exit 1 when one does).
  --seed N       the first seed (default 1); rerun one state with --seed N --count 1
  --count N      how many states (default 2000; npm test judges a few hundred,
                 docs/benchmarks.md lists both)
  --kind KIND    Deployment (default), DaemonSet, StatefulSet or Rollout (Argo)
  --rules        placement rules on each state (anti-affinity, a zone pin, spread)
  --motion       a rollout in motion (slow stops and starts, preemption, a tight quota)
  --guards       the states of the guard families (disruption budgets, paused rollouts, …)
  --family NAME  only that guard family (${GUARD_FAMILIES.join(', ')});
                 or one drawn only when named, from every seed (${OPT_IN_FAMILIES.join(', ')})
  --json         the tally as JSON
  -h, --help     this text
`;

const args = scriptArgs('verify:states', USAGE, {
  seed: { type: 'string', default: '1' },
  count: { type: 'string', default: '2000' },
  kind: { type: 'string' },
  rules: { type: 'boolean', default: false },
  motion: { type: 'boolean', default: false },
  guards: { type: 'boolean', default: false },
  family: { type: 'string' },
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

const FAMILY_NAMES = [...GUARD_FAMILIES, ...OPT_IN_FAMILIES];
const family = FAMILY_NAMES.find((f) => f === values.family);
if (values.family !== undefined && !family) {
  process.exit(refuse('verify:states', USAGE, `--family takes one of ${FAMILY_NAMES.join(', ')}`));
}
const optIn = OPT_IN_FAMILIES.find((f) => f === family);
const guards = values.guards || family !== undefined;
/** With --family, the seeds that fall in it (familyOfSeed), `count` of them from `seed` on. */
const seeds: number[] = [];
for (let s = seed; seeds.length < count; s += 1)
  if (!family || optIn || familyOfSeed(s) === family) seeds.push(s);

const results: JudgedState[] = [];
const started = performance.now();
const progress = process.stderr.isTTY && !values.json;
for (const [i, s] of seeds.entries()) {
  const result = judgeSeed(s, kind, values.rules, values.motion, optIn ?? guards);
  results.push(result);
  const ordered = result.planVerdicts.some((v) => v.orderDependent);
  if (((result.judgement !== 'agree' && result.judgement !== 'skipped') || ordered) && !values.json) {
    process.stdout.write(
      `seed ${s}: ${result.judgement} (${result.completes ? 'completes' : 'never completes'}; findings ${result.codes.join(', ') || 'none'}; plans ${result.plans.join(', ') || 'none'}${harmsOf(result)})\n  ${result.description}\n`,
    );
  }
  if (progress && i % 25 === 24) process.stderr.write(`\r${i + 1}/${count} states`);
}
if (progress) process.stderr.write('\n');
const t = tally(results);
const seconds = (performance.now() - started) / 1000;
const byFamily: Record<string, Tally> | undefined = guards
  ? Object.fromEntries(
      FAMILY_NAMES.map((f) => [f, tally(results.filter((r) => r.family === f))] as const).filter(
        ([, ft]) => ft.judged + ft.skipped > 0,
      ),
    )
  : undefined;
if (values.json) {
  process.stdout.write(
    `${JSON.stringify({ seed, count, seconds, ...t, ...(byFamily ? { byFamily } : {}) }, null, 2)}\n`,
  );
} else {
  const pct = (n: number): string => (t.judged === 0 ? '0' : ((100 * n) / t.judged).toFixed(1));
  process.stdout.write(
    [
      `${t.judged} states judged (${t.skipped} skipped: no steady state before the change), seeds ${seeds[0] ?? seed}..${seeds.at(-1) ?? seed}, ${seconds.toFixed(1)} s`,
      `agreement        ${t.agree} (${pct(t.agree)}%)`,
      `rollouts finished ${t.completed}, never finished ${t.judged - t.completed}`,
      `false deadlocks  ${t.falseDeadlocks}`,
      `harmful plans    ${t.harmfulPlans}`,
      `missed deadlocks ${t.missedDeadlocks}`,
      `fixes that failed ${t.fixFailed} (and ${t.unforeseeable} on a crash no pod had shown at the snapshot, not counted as disagreement)`,
      `plans judged     ${t.plansJudged} (replays diverged: ${t.diverged}); harmful ${t.harmfulPlanCount} ${JSON.stringify(t.harms)}; below a floor but labelled an outage ${t.labelledOutages}; swapped for a crash the snapshot showed no sign of ${t.unforeseenPlans}; order-dependent (reach the goal only if a neighbour loses the race for the room) ${t.orderDependentPlans}`,
      ...(byFamily
        ? [
            '',
            'family             states  agreement   harmful plans  missed  unforeseen',
            ...Object.entries(byFamily).map(([f, ft]) =>
              [
                f.padEnd(18),
                String(ft.judged).padStart(6),
                `${ft.agree} (${ft.judged === 0 ? '0' : ((100 * ft.agree) / ft.judged).toFixed(1)}%)`.padStart(
                  11,
                ),
                String(ft.harmfulPlanCount).padStart(15),
                String(ft.missedDeadlocks).padStart(7),
                String(ft.unforeseenPlans).padStart(11),
              ].join(' '),
            ),
          ]
        : []),
      '',
    ].join('\n'),
  );
}

function harmsOf(result: JudgedState): string {
  const ordered = result.planVerdicts.filter((v) => v.orderDependent && !v.harm);
  const named =
    ordered.length === 0
      ? ''
      : `; order-dependent, naming the neighbour: ${ordered.map((v) => v.kind).join(', ')}`;
  return harmfulOf(result) + named;
}

function harmfulOf(result: JudgedState): string {
  const harmful = result.planVerdicts.filter((v) => v.harm);
  return harmful.length === 0
    ? ''
    : `; harmful: ${harmful.map((v) => `${v.kind} ${v.harm ?? ''} (serving ${v.startServing}→min ${v.minServing}${v.floor !== undefined ? `, floor ${v.floor}` : ''}${v.sharedBudget ? `; shared budget ${v.sharedBudget}` : ''})`).join(', ')}`;
}
process.exit(t.agree + t.unforeseeable === t.judged ? 0 : 1);
