/**
 * A plan's proof in plain words (src/remediation/plan.ts PlanProof), for every renderer:
 * the chat port and the CLI escape it as they escape any text (pod and node names come
 * from the cluster). One sentence for the lowest serving count and the floor, one for
 * the steps.
 */
import type { PlanProof } from './plan.js';

export function proofSentence(proof: PlanProof): string {
  const { now, lowest, wanted } = proof.serving;
  const resumed = proof.atResume ? ' once it is resumed (the plan does not resume it)' : '';
  const head =
    proof.method === 'run'
      ? `Run forward${resumed}: serving replicas go no lower than ${lowest} of ${wanted} (${now} now)`
      : `Checked, not run (${proof.why ?? 'the model cannot follow it'})${resumed}: ${lowest} of ${wanted} replicas keep serving while it acts (${now} now)`;
  return `${head}${floorWords(proof)}.${orderWords(proof)}`;
}

/** A goal reached only if ours win the scheduler's queue against pods of other workloads. */
function orderWords(proof: PlanProof): string {
  const order = proof.dependsOnOrder;
  if (!order) return '';
  return ` It depends on the order the scheduler takes pending pods in: ${order.rivals} wait${/ pods\)$|, /.test(order.rivals) ? '' : 's'} for room at the same priority, and if theirs are placed first ${order.otherwise}.`;
}

export function proofSteps(proof: PlanProof): string | undefined {
  return proof.steps.length > 0 ? `Steps: ${proof.steps.join('; ')}.` : undefined;
}

function floorWords(proof: PlanProof): string {
  const { floor } = proof;
  if (floor === undefined) return '; no PodDisruptionBudget covers its pods';
  if (floor === 'unknown') return '; the PodDisruptionBudgets were not read, so its floor is unknown';
  const where = `PodDisruptionBudget ${floor.budget} (${floor.rule}) needs ${floor.minServing} of them serving`;
  return proof.belowFloor ? `, ${proof.belowFloor} below ${where}` : `; ${where}`;
}

/** The proof in a few words, for the short message: "Run forward: lowest 2 of 3 serving; PodDisruptionBudget web needs 2." */
export function proofBrief(proof: PlanProof): string {
  const { lowest, wanted } = proof.serving;
  const how = proof.method === 'run' ? 'Run forward' : 'By its counts';
  const resumed = proof.atResume ? ' once resumed' : '';
  const floor = proof.floor;
  const guard =
    floor === undefined
      ? ''
      : floor === 'unknown'
        ? '; budgets unread'
        : proof.belowFloor
          ? `, ${proof.belowFloor} below PodDisruptionBudget ${floor.budget}`
          : `; PodDisruptionBudget ${floor.budget} needs ${floor.minServing}`;
  const order = proof.dependsOnOrder ? `; depends on the order against ${proof.dependsOnOrder.rivals}` : '';
  return `${how}${resumed}: lowest ${lowest} of ${wanted} serving${guard}${order}.`;
}
