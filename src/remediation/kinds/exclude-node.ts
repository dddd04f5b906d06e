/**
 * exclude-node: keep the workload's pods off the node(s) where they crash-loop with a
 * required node affinity NotIn (builders/exclude-node.ts): the fix for a crash loop
 * on one node. Pure.
 */
import { buildExcludeNodePlans } from '../builders/exclude-node.js';
import type { WorkloadPatchPlan } from '../plan.js';
import { names } from './words.js';
import { EXCLUSION_POINTERS } from '../exclusion-record.js';
import { workloadPaths, workloadPatchKind } from './workload-patch.js';

/** A `NotIn` node-affinity expression, as key and values. */
interface Exclusion {
  key: string;
  values: string[];
}

/** Every `NotIn` expression in a value (a patch body or an affinity), as key and values. */
function notInExpressions(body: unknown, out: Exclusion[] = []): Exclusion[] {
  if (Array.isArray(body)) for (const v of body) notInExpressions(v, out);
  else if (body !== null && typeof body === 'object') {
    const o = body as Record<string, unknown>;
    if (o.operator === 'NotIn' && typeof o.key === 'string' && Array.isArray(o.values)) {
      const values = o.values.filter((v): v is string => typeof v === 'string');
      const same = out.find((e) => e.key === o.key);
      if (same) {
        for (const v of values) if (!same.values.includes(v)) same.values.push(v);
      } else {
        out.push({ key: o.key, values: [...values] });
      }
    }
    for (const v of Object.values(o)) notInExpressions(v, out);
  }
  return out;
}

/**
 * What the patch adds: its NotIn values that the affinity the plan assumed (its
 * precondition) did not already hold. A node exclusion by hostname reads "node a, b";
 * by another label (a crash that one OS image or CPU feature explains) "the nodes
 * with key=value".
 */
function exclusionWords(plan: WorkloadPatchPlan, room: number): string {
  const before = notInExpressions(plan.preconditions.fields.map((f) => f.value));
  const added = notInExpressions(plan.patch?.body)
    .map((e) => ({
      key: e.key,
      values: e.values.filter((v) => !before.some((b) => b.key === e.key && b.values.includes(v))),
    }))
    .filter((e) => e.values.length > 0);
  const parts = added.map((e) =>
    e.key === 'kubernetes.io/hostname'
      ? `node ${names(e.values, room)}`
      : `the nodes with ${names(
          e.values.map((v) => `${e.key}=${v}`),
          room,
        )}`,
  );
  return parts.length > 0 ? parts.join(' and ') : 'the excluded nodes';
}

export const excludeNode = {
  ...workloadPatchKind({
    kind: 'exclude-node',
    workloads: ['Deployment', 'DaemonSet', 'StatefulSet', 'Rollout'],
    // The rollout it starts moves pods off the excluded node at the strategy's pace.
    spendsAvailability: false,
    // Its goal is the crash off the nodes it excludes; room for every replica elsewhere is
    // its own warning (exclude-node-room.ts), not a reason to keep the crash.
    goal: 'crash-off-its-nodes',
    answers: {
      CrashLoopOnNode: (ctx, finding, notOffered) =>
        buildExcludeNodePlans(ctx, finding, undefined, notOffered),
    },
    // The affinity, and the exclusion's record on the workload's own metadata (exclusion-record.ts).
    paths: (workload) => [workloadPaths(workload).requiredNodeAffinity, ...EXCLUSION_POINTERS],
    change: (plan, target, room) => {
      const head = `Keep ${target} off `;
      return `${head}${exclusionWords(plan, room - head.length - 40)} (required node affinity).`;
    },
  }),
  // It ends itself: its approver (or `apply --lasts`) chooses how long it lasts.
  lasts: true as const,
};
