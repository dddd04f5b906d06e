/**
 * The manifest change that lets a stalled rollout finish, as a person applies it to
 * their file: the old pods go first (maxSurge 0 / maxUnavailable 1, or Recreate for a
 * Deployment). Offered only when the forward model, run again with that strategy,
 * finishes the rollout (DESIGN.md §1 A: a strategy change where nothing but room held
 * by the old pods blocks; never for plain unschedulability). Pure.
 */
import { stringify } from 'yaml';
import type { Outcome } from '../diagnosis/forward/run.js';
import type { WorkloadObject, WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import type { WorkloadKind } from '../diagnosis/workload-ref.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import { withObject } from './candidate.js';
import { AnalysisContext } from '../diagnosis/analysis-context.js';
import { workloadFloor } from '../diagnosis/guards/budgets.js';

export interface StrategyFix {
  /** "maxSurge 0, maxUnavailable 1", "strategy Recreate". */
  words: string;
  /** What it costs while the rollout runs. */
  cost: string;
  /**
   * The PodDisruptionBudget it takes the workload below in every rollout: a rolling
   * update does not consult budgets (DESIGN.md §4d), so the Fix is that outage as the
   * budget's owners count it. `serving`: the pods that still serve while it runs.
   */
  below?: { budget: string; rule: string; minServing: number; serving: number };
  /** A JSON merge patch of the workload (`kubectl patch --type merge`), and the same as YAML for the file. */
  patch: { type: 'merge'; body: Record<string, unknown> };
  yaml: string;
}

interface Candidate {
  words: string;
  body: Record<string, unknown>;
}

const OLD_FIRST = { maxSurge: 0, maxUnavailable: 1 };

/**
 * The old-pods-first strategies the kind has, as merge patches of its strategy field
 * (the kind module says which field, and whether Recreate is one); for an Argo Rollout
 * its canary's bounds (the steps stay as written). None for a kind that never surges (a
 * StatefulSet), nor for a blue-green Rollout: it keeps every stable pod until promotion
 * whatever its bounds, and a canary block beside blueGreen is a second strategy the
 * Rollout's validation refuses (InvalidSpec), not a fix.
 */
function candidates(kind: WorkloadKind, object: WorkloadObject): Candidate[] {
  const module = workloadKind(kind);
  if (module.surgeFix === 'canary') {
    if (!canaryOf(object)) return [];
    return [
      {
        words: 'canary maxSurge 0, maxUnavailable 1',
        body: { spec: { [module.strategyAt.field]: { canary: OLD_FIRST } } },
      },
    ];
  }
  if (module.surgeFix !== 'replicas' && module.surgeFix !== 'per-node') return [];
  const field = module.strategyAt.field;
  return [
    {
      words: 'maxSurge 0, maxUnavailable 1',
      body: { spec: { [field]: { type: 'RollingUpdate', rollingUpdate: OLD_FIRST } } },
    },
    ...(module.recreate
      ? [
          {
            words: 'strategy Recreate',
            body: { spec: { [field]: { type: 'Recreate', rollingUpdate: null } } },
          },
        ]
      : []),
  ];
}

/** An Argo Rollout's strategy is not blue-green (a canary, or none: the controller's default canary). */
function canaryOf(object: WorkloadObject): boolean {
  const strategy = (object.spec as { strategy?: { blueGreen?: unknown } }).strategy;
  return strategy?.blueGreen === undefined || strategy.blueGreen === null;
}

/** JSON merge patch (RFC 7386) of plain data: null removes a key. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const base =
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key], value);
  }
  return base;
}

/**
 * The first old-pods-first strategy under which `run` finishes the rollout, or undefined.
 * @example strategyFix(snapshot, object, (s) => runForward(new AnalysisContext(s), 'candidate'))?.yaml
 */
export function strategyFix(
  snapshot: WorkloadSnapshot,
  object: WorkloadObject,
  run: (candidate: WorkloadSnapshot) => Outcome,
): StrategyFix | undefined {
  const replicas = workloadKind(snapshot).desiredReplicas(object);
  for (const candidate of candidates(snapshot.target.kind, object)) {
    const patched = mergePatch(object, candidate.body) as WorkloadObject;
    if (run(withObject(snapshot, patched)).result !== 'completes') continue;
    const floor = workloadFloor(new AnalysisContext(snapshot));
    const serving = candidate.words === 'strategy Recreate' ? 0 : Math.max(0, replicas - 1);
    const below =
      floor !== undefined && floor !== 'unknown' && serving < floor.minServing
        ? { budget: floor.budget, rule: floor.rule, minServing: floor.minServing, serving }
        : undefined;
    return {
      words: candidate.words,
      cost: costOf(workloadKind(snapshot).surgeFix === 'per-node', candidate.words, replicas),
      ...(below ? { below } : {}),
      patch: { type: 'merge', body: candidate.body },
      yaml: stringify(withoutNulls(candidate.body)).trimEnd(),
    };
  }
  return undefined;
}

function costOf(perNode: boolean, words: string, replicas: number): string {
  if (words === 'strategy Recreate')
    return 'every pod goes before any new one starts: nothing is served until the new pods are Ready.';
  if (perNode) return 'on each node the old pod goes before the new one starts, one node at a time.';
  return replicas <= 1
    ? 'with 1 replica it serves nothing from the moment the old pod goes until the new one is Ready.'
    : `one of the ${replicas} pods at a time is down while the rollout runs.`;
}

/** The YAML a person writes into the file: `rollingUpdate: null` is what they delete. */
function withoutNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}
