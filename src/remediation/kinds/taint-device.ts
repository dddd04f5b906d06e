/**
 * taint-device: where Unhealthy devices explain a crash loop and the cluster serves
 * DeviceTaintRule, taint just that device NoSchedule with a cluster-scoped rule and
 * replace the pods of this workload that hold it (builders/taint-device.ts). Its Undo
 * is untaint-device. Pure.
 */
import { buildCrashLoopTaintDevicePlans, buildTaintDevicePlans } from '../builders/taint-device.js';
import { deviceName, deviceTaintRuleBody } from '../device-taint.js';
import type { TaintDevicePlan, UntaintDevicePlan } from '../plan.js';
import { checkDeviceTaintPayload, deviceTaintDrift, ruleWords } from './device-taint-rule.js';
import type { Applied, RemediationKindModule } from './kind.js';
import { names, podLines } from './words.js';
import { restoredByPatch, rolloutByPatch } from './workload-patch.js';

/** The Undo: delete the rule, checked only against the workload's uid (a later spec change must not strand a cluster-scoped rule). */
function untaintPlan(plan: TaintDevicePlan, applied: Applied): UntaintDevicePlan | null {
  if (!plan.deviceTaint) return null;
  const { pods: _pods, ...rest } = plan;
  return {
    ...rest,
    id: `undo-${plan.id}`,
    kind: 'untaint-device',
    summary: `Undo: delete DeviceTaintRule ${plan.deviceTaint.name}, so new claims may get device ${deviceName(plan.deviceTaint)} again.`,
    impact:
      'deletes the cluster-scoped DeviceTaintRule; no pod is deleted and the Deployment is unchanged. New claims of any tenant may be allocated the device again.',
    warnings: [],
    patch: null,
    inverse: null,
    preconditions: { uid: plan.preconditions.uid, generation: applied.generation, fields: [] },
  };
}

export const taintDevice: RemediationKindModule<TaintDevicePlan> & { kind: 'taint-device' } = {
  kind: 'taint-device',
  answers: {
    // Only where a device reports Unhealthy and the cluster serves DeviceTaintRule.
    CrashLoopOnNode: (ctx, finding) => buildTaintDevicePlans(ctx, finding),
    // Only where Unhealthy devices explain every crash (a multi-GPU node with healthy pods too).
    CrashLoop: (ctx, finding) => buildCrashLoopTaintDevicePlans(ctx, finding),
  },
  writes: 'device-taint-rule-creation',
  clusterScoped: true,
  paths: () => [],
  checkPayload: (plan) => checkDeviceTaintPayload(plan, 'required'),
  // The pods holding the device are deleted, as delete-pods deletes pods: any of them
  // serving stops until its replacement is Ready, so it decides as delete-pods does.
  spendsAvailability: true,
  // The model does not follow a device taint: checked by its counts, the pods it deletes.
  // Their replacements move off the device, not onto a template known to crash there.
  proof: {
    takesDown: (plan, serving) => serving(plan.pods),
    replacesWithTemplate: false,
    bypassesPause: false,
    goal: 'rollout-completes',
  },
  changesPods: true,
  staleWhen: 'spec-changed',
  inverse: untaintPlan,
  // The pods holding the device are deleted: their replacements becoming Ready is what is watched.
  watch: (plan) => ({ kind: 'replacements', pods: plan.pods ?? [] }),
  drift: deviceTaintDrift,
  words: {
    change: (plan, target, room) => {
      const t = plan.deviceTaint;
      const pods = plan.pods?.map((p) => p.name) ?? [];
      const device = t ? `device ${deviceName(t)}` : 'the Unhealthy device';
      const head = `Taint ${device} NoSchedule (a cluster-wide DeviceTaintRule, every tenant) and replace ${pods.length} pod(s) of ${target} holding it: `;
      return head.length + 20 <= room
        ? `${head}${names(pods, room - head.length - 1)}.`
        : `Taint the Unhealthy device NoSchedule (cluster-wide DeviceTaintRule) and replace ${pods.length} pod(s) of ${target}.`;
    },
    restores: restoredByPatch,
    rollout: rolloutByPatch,
    write: (plan) => [
      `Creates ${ruleWords(plan)}:`,
      JSON.stringify(deviceTaintRuleBody(plan), null, 2),
      `then deletes these pods in namespace ${plan.target.namespace} (each only if its uid is unchanged):`,
      ...podLines(plan.pods),
    ],
    applied: (plan) =>
      `Applied: DeviceTaintRule ${plan.deviceTaint.name} in place, pods holding the device deleted:`,
  },
};
