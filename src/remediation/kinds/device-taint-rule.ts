/**
 * What taint-device and its Undo, untaint-device, share: both write one cluster-scoped
 * DeviceTaintRule (src/remediation/device-taint.ts derives it from the sealed target),
 * never the workload. Pure.
 */
import { checkDeviceTaintTarget } from '../device-taint.js';
import type { TaintDevicePlan, UncheckedPlan, UntaintDevicePlan } from '../plan.js';
import { PODS_ONLY } from './delete-pods.js';
import type { AllowlistVerdict, DriftRule } from './kind.js';

/**
 * No patch, no inverse, no ReplicaSet; a DeviceTaintRule this tool writes (fixed
 * taint, derived name, known version); pods to replace for taint-device (a NoSchedule
 * taint alone moves nothing), none for untaint-device.
 */
export function checkDeviceTaintPayload(plan: UncheckedPlan, pods: 'required' | 'none'): AllowlistVerdict {
  if (plan.patch !== null) return { ok: false, reason: `${plan.kind} carries no patch` };
  if (plan.inverse) return { ok: false, reason: `${plan.kind} carries no inverse patch` };
  if (plan.replicaSet) return { ok: false, reason: `${plan.kind} scales no ReplicaSet` };
  const taint = checkDeviceTaintTarget(plan.deviceTaint);
  if (!taint.ok) return { ok: false, reason: `${plan.kind}: ${taint.reason}` };
  if (pods === 'required' && !plan.pods?.length) {
    return {
      ok: false,
      reason: `${plan.kind} names no pods to replace (a NoSchedule taint alone moves nothing)`,
    };
  }
  if (pods === 'none' && plan.pods?.length) return { ok: false, reason: `${plan.kind} deletes no pods` };
  return { ok: true };
}

/**
 * A DeviceTaintRule and pods are in no manifest of the workload. With no owner
 * recognised the verdict reads as for deleting pods.
 */
export const deviceTaintDrift: DriftRule<TaintDevicePlan | UntaintDevicePlan> = {
  looksAt: 'objects-outside-the-manifest',
  verdict: (plan, owner) =>
    owner === undefined
      ? { fields: [], why: PODS_ONLY }
      : {
          fields: [`devicetaintrule/${plan.deviceTaint.name}`],
          why: `writes a cluster-scoped DeviceTaintRule and deletes pods: neither is in ${owner}'s manifest of this Deployment, whose spec is untouched`,
        },
};

/** `cli apply`'s name of the rule: "devicetaintrules/NAME (VERSION, cluster-scoped)". */
export function ruleWords(plan: TaintDevicePlan | UntaintDevicePlan): string {
  return `devicetaintrules/${plan.deviceTaint.name} (${plan.deviceTaint.apiVersion}, cluster-scoped)`;
}
