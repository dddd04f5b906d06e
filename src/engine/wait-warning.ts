/**
 * A rollout that goes on by itself once running Jobs end or a neighbour's rollout removes
 * its old pods (diagnosis/forward/job-wait.ts, `Finding.waitsFor`) may need no plan at
 * all: each plan for it says first that waiting may be enough, so that an approver weighs
 * an outage against a wait. Pure.
 */
import type { Finding } from '../diagnosis/finding.js';
import { named, rolloutHolders } from '../diagnosis/forward/job-wait.js';
import { warningsFrom, type PlanSaid } from '../remediation/plan-words.js';
import type { RemediationPlan } from '../remediation/plan.js';

/** `plan` with the wait said ahead of its own warnings. */
export function withWaitWarning(
  plan: RemediationPlan,
  waitsFor: NonNullable<Finding['waitsFor']>,
): RemediationPlan {
  const one = waitsFor.names.length === 1;
  const said: PlanSaid =
    waitsFor.holders === 'scale-downs'
      ? waitsFor.autoscalerMax !== undefined
        ? {
            key: 'waitScaleDownCapped',
            params: { names: `deployment ${named(waitsFor.names)}`, max: String(waitsFor.autoscalerMax) },
          }
        : { key: 'waitScaleDown', params: { names: `deployment ${named(waitsFor.names)}` } }
      : waitsFor.holders === 'jobs'
        ? {
            key: 'waitJobs',
            params: {
              names: named(waitsFor.names),
              one,
              some: waitsFor.some,
              bound: waitsFor.bound === true,
            },
          }
        : {
            key: 'waitRollouts',
            params: {
              names: rolloutHolders(waitsFor.names, waitsFor.argo),
              argo: (waitsFor.argo ?? []).length > 0,
              one,
              some: waitsFor.some,
              unread: waitsFor.unread === true,
              bound: waitsFor.bound === true,
              starting: waitsFor.starting === true,
            },
          };
  const { warnings, warningsSaid } = warningsFrom([said]);
  return {
    ...plan,
    warnings: [...warnings, ...plan.warnings],
    warningsSaid: [...(warningsSaid ?? []), ...(plan.warningsSaid ?? [])],
  };
}
