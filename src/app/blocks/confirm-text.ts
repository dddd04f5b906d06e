import { deviceName } from '../../remediation/device-taint.js';
import type { Patch, RemediationPlan } from '../../remediation/plan.js';
import { plainText, type PlainText } from './mrkdwn.js';
import { LIMITS } from './text.js';

/**
 * Where the exact patch really is: the thread report under the result message (and,
 * for an Undo, the reply that carries the button) shows every plan's exact patch and
 * the server's dry run, once.
 */
export const PATCH_POINTER = 'The exact patch and the server dry run are in the thread.';

/** Values found anywhere in `body` under objects shaped like a NotIn node-affinity term. */
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
 * What the exclude-node patch adds: its NotIn values that the affinity the plan
 * assumed (its precondition) did not already hold. A node exclusion by hostname reads
 * "node a, b"; by another label (a crash that one OS image or CPU feature explains)
 * "the nodes with key=value".
 */
function exclusionWords(plan: RemediationPlan, room: number): string {
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

function strategyOf(plan: RemediationPlan): { type?: unknown; maxSurge?: unknown; maxUnavailable?: unknown } {
  const spec = (plan.patch?.body as { spec?: { strategy?: Record<string, unknown>; template?: unknown } })
    ?.spec;
  const s = spec?.strategy ?? {};
  const ru = (s.rollingUpdate ?? {}) as Record<string, unknown>;
  return { type: s.type, maxSurge: ru.maxSurge, maxUnavailable: ru.maxUnavailable };
}

function restarts(plan: RemediationPlan): boolean {
  return JSON.stringify(plan.patch?.body ?? null).includes('kubectl.kubernetes.io/restartedAt');
}

/** JSON patch operations that write (a `test` only guards). */
function writtenPaths(patch: Patch): string[] | null {
  if (patch.type !== 'json' || !Array.isArray(patch.body)) return null;
  return (patch.body as { op?: unknown; path?: unknown }[])
    .filter((op) => op.op !== 'test' && typeof op.path === 'string')
    .map((op) => String(op.path));
}

/**
 * True when the patch changes the pod template, which is what starts a rollout.
 * The strategy, replicas and the Deployment's own metadata are not in the template:
 * changing only those replaces no pod.
 */
export function startsRollout(patch: Patch | null): boolean {
  if (!patch) return false;
  const paths = writtenPaths(patch);
  if (paths) return paths.some((p) => p === '/spec/template' || p.startsWith('/spec/template/'));
  const spec = (patch.body as { spec?: Record<string, unknown> } | null)?.spec;
  return spec?.template !== undefined;
}

/** What an undo patch puts back, in words: "the rollout strategy (RollingUpdate maxSurge 25%, maxUnavailable 25%)". */
export function restoredInWords(plan: RemediationPlan): string {
  if (plan.kind === 'untaint-device' && plan.deviceTaint) {
    return `device ${deviceName(plan.deviceTaint)} to new claims (DeviceTaintRule ${plan.deviceTaint.name} is deleted)`;
  }
  if (plan.kind === 'scale-back-old-replicaset' && plan.replicaSet) {
    return `old ReplicaSet ${plan.replicaSet.name} to ${plan.replicaSet.to} replica(s), the count it had (pods of the old template)`;
  }
  const patch = plan.patch;
  if (!patch) return 'the previous state';
  const parts: string[] = [];
  const paths = writtenPaths(patch);
  const at = (pointer: string): unknown =>
    pointer
      .split('/')
      .filter((k) => k !== '')
      .reduce<unknown>(
        (v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined),
        patch.body,
      );
  const touched = (prefix: string): boolean =>
    paths ? paths.some((p) => p === prefix || p.startsWith(`${prefix}/`)) : at(prefix) !== undefined;
  if (touched('/spec/strategy')) {
    const s = strategyOf(plan);
    parts.push(
      s.type === 'Recreate'
        ? 'the rollout strategy (Recreate)'
        : s.maxSurge !== undefined
          ? `the rollout strategy (RollingUpdate maxSurge ${String(s.maxSurge)}, maxUnavailable ${String(s.maxUnavailable)})`
          : 'the rollout strategy',
    );
  }
  if (touched('/spec/template/spec/affinity'))
    parts.push('the previous pod affinity (the node exclusion is removed)');
  if (touched('/spec/replicas')) parts.push('the previous replica count');
  if (parts.length === 0 && paths) parts.push(...paths);
  if (parts.length === 0) parts.push('the fields the fix changed');
  return parts.join(' and ');
}

/** One sentence: whether an undo (or any plan) starts a rollout, and why. */
export function rolloutInWords(plan: RemediationPlan): string {
  if (plan.kind === 'untaint-device') {
    return 'It starts no rollout and deletes no pod: the replaced pods stay on the devices they have.';
  }
  if (plan.kind === 'scale-back-old-replicaset') {
    return 'It starts no rollout: the Deployment is not changed; the old pods run beside the new ones until the Deployment controller scales them down as new pods become available. To get the old version back, roll the Deployment back.';
  }
  return startsRollout(plan.patch)
    ? 'It changes the pod template, so a new rollout starts and replaces the pods.'
    : 'It does not start a rollout: the strategy is not part of the pod template, so running pods stay as they are.';
}

/** "a, b and 3 more": whole names only, as many as fit in `room` characters. */
function names(list: readonly string[], room: number): string {
  const shown: string[] = [];
  for (const name of list) {
    const rest = list.length - shown.length - 1;
    const next = [...shown, name].join(', ') + (rest > 0 ? ` and ${rest} more` : '');
    if (next.length > room) break;
    shown.push(name);
  }
  if (shown.length === 0) return `${list.length} of them`;
  const rest = list.length - shown.length;
  return shown.join(', ') + (rest > 0 ? ` and ${rest} more` : '');
}

/** The change in words, for a target phrase such as "deployment/web in ns shop". */
function changeInWords(plan: RemediationPlan, target: string, room: number): string {
  // The restart time is the moment of the apply (the patch carries a marker for it).
  const restart = restarts(plan) ? ` and restart ${target} now` : ` of ${target}`;
  switch (plan.kind) {
    case 'set-rolling-update': {
      const s = strategyOf(plan);
      return `Set the strategy to RollingUpdate with maxSurge ${String(s.maxSurge)}, maxUnavailable ${String(s.maxUnavailable)}${restart}.`;
    }
    case 'set-recreate':
      return `Set the strategy to Recreate (old pods stop before new ones start)${restart}.`;
    case 'rollout-restart':
      return `Restart ${target} now: its pods are replaced as its strategy allows.`;
    case 'exclude-node': {
      const head = `Keep ${target} off `;
      return `${head}${exclusionWords(plan, room - head.length - 40)} (required node affinity).`;
    }
    case 'delete-pods': {
      const pods = plan.pods?.map((p) => p.name) ?? [];
      const head = `Delete ${pods.length} pod(s) of ${target}: `;
      return `${head}${names(pods, room - head.length - 1)}.`;
    }
    case 'taint-device': {
      const t = plan.deviceTaint;
      const pods = plan.pods?.map((p) => p.name) ?? [];
      const device = t ? `device ${deviceName(t)}` : 'the Unhealthy device';
      const head = `Taint ${device} NoSchedule (a cluster-wide DeviceTaintRule, every tenant) and replace ${pods.length} pod(s) of ${target} holding it: `;
      return head.length + 20 <= room
        ? `${head}${names(pods, room - head.length - 1)}.`
        : `Taint the Unhealthy device NoSchedule (cluster-wide DeviceTaintRule) and replace ${pods.length} pod(s) of ${target}.`;
    }
    case 'untaint-device': {
      const t = plan.deviceTaint;
      const text = `Delete DeviceTaintRule ${t?.name ?? ''}: new claims may get device ${t ? deviceName(t) : ''} again.`;
      return text.length <= room ? text : 'Delete the DeviceTaintRule: new claims may get the device again.';
    }
    case 'scale-back-old-replicaset': {
      const rs = plan.replicaSet;
      const tail = ` of ${target} back to ${rs?.to ?? 0} replicas; the spec is not touched.`;
      const named = rs ? `Scale old ReplicaSet ${rs.name}` : '';
      return `${rs && named.length + tail.length <= room ? named : 'Scale the old ReplicaSet'}${tail}`;
    }
    case 'scale-old-replicaset': {
      const rs = plan.replicaSet;
      const tail = ` of ${target} to ${rs?.to ?? 0} replicas; the spec is not touched.`;
      const named = rs ? `Scale old ReplicaSet ${rs.name}` : '';
      const head = rs && named.length + tail.length <= room ? named : 'Scale the old ReplicaSet';
      return `${head}${tail}`;
    }
  }
}

function firstSentence(text: string): string {
  const one = /^.*?[.!?](?=\s|$)/s.exec(text)?.[0] ?? text;
  return one.replace(/\s+/g, ' ').trim();
}

/**
 * The confirm dialog's text (plain_text, at most 300 characters): the change in
 * words, the impact's first sentence when it fits, and where the exact patch is.
 * Built from whole parts, never cut mid-word or mid-JSON; a target name too long to
 * fit is replaced by "this Deployment" (the dialog's title and the message name it).
 * An Undo says what it restores and whether it starts a rollout.
 */
export function confirmDialogText(plan: RemediationPlan, options: { undo?: boolean } = {}): PlainText {
  const max = LIMITS.confirmText;
  const room = max - PATCH_POINTER.length - 1;
  const { name, namespace } = plan.target;
  const targets = [`deployment/${name} in ns ${namespace}`, 'this Deployment'];
  for (const target of targets) {
    // Undo kinds of their own say their change as any plan does; an Undo that patches
    // the Deployment back says what it restores and whether it starts a rollout.
    const patchesBack =
      options.undo && plan.kind !== 'untaint-device' && plan.kind !== 'scale-back-old-replicaset';
    const change = patchesBack
      ? `Restore ${restoredInWords(plan)} of ${target}.`
      : changeInWords(plan, target, room);
    if (change.length > room) continue;
    const impact = patchesBack ? rolloutInWords(plan) : `Impact: ${firstSentence(plan.impact)}`;
    const parts =
      change.length + impact.length + 1 <= room ? [change, impact, PATCH_POINTER] : [change, PATCH_POINTER];
    return plainText(parts.join(' '), max);
  }
  return plainText(
    `${options.undo ? 'Undo' : 'Apply'} ${plan.kind} on this Deployment. ${PATCH_POINTER}`,
    max,
  );
}
