/**
 * untaint-device, only as the Undo of taint-device: deletes that DeviceTaintRule, only
 * while it is still the one the plan wrote. It replaces no pod and starts no rollout.
 * A later spec change of the workload must not strand a cluster-scoped rule, so only
 * the workload's uid makes it stale, not its generation. Pure.
 */
import { deviceName } from '../device-taint.js';
import type { UntaintDevicePlan } from '../plan.js';
import { checkDeviceTaintPayload, deviceTaintDrift, ruleWords } from './device-taint-rule.js';
import type { RemediationKindModule } from './kind.js';
import { restoredByPatch } from './workload-patch.js';
import { UNDO_WORDS } from './undo-words.js';

export const untaintDevice: RemediationKindModule<UntaintDevicePlan> & { kind: 'untaint-device' } = {
  kind: 'untaint-device',
  answers: {},
  undoes: 'taint-device',
  writes: 'device-taint-rule-deletion',
  clusterScoped: true,
  paths: () => [],
  checkPayload: (plan) => checkDeviceTaintPayload(plan, 'none'),
  // Only an Undo, never offered: it takes the taint off.
  spendsAvailability: false,
  changesPods: false,
  staleWhen: 'replaced',
  inverse: () => null,
  watch: () => ({
    kind: 'nothing',
    why: 'deleting the DeviceTaintRule starts no rollout and replaces no pod (new claims may get the device again)',
  }),
  drift: deviceTaintDrift,
  words: {
    change: (plan, _target, room) => {
      const t = plan.deviceTaint;
      const text = `Delete DeviceTaintRule ${t?.name ?? ''}: new claims may get device ${t ? deviceName(t) : ''} again.`;
      return text.length <= room ? text : 'Delete the DeviceTaintRule: new claims may get the device again.';
    },
    restores: (plan, lang) =>
      plan.deviceTaint
        ? UNDO_WORDS.untainted[lang]({ device: deviceName(plan.deviceTaint), rule: plan.deviceTaint.name })
        : restoredByPatch(plan, lang),
    rollout: (_plan, lang) => UNDO_WORDS.untaintedRollout[lang](),
    write: (plan) => [`Deletes ${ruleWords(plan)}, only while it is the one rollout-doctor wrote.`],
    applied: (plan) => `Applied: DeviceTaintRule ${plan.deviceTaint.name} deleted:`,
  },
};
