/**
 * The DeviceTaintRule of a taint-device plan, derived from the sealed DeviceTaintTarget
 * only: the executor writes exactly this body, the allowlist checks the target against
 * it, and the thread report shows it. Pure.
 *
 * DeviceTaintRule (resource.k8s.io; alpha v1alpha3 to 1.35, beta v1beta2 and off by
 * default in 1.36, GA v1 in 1.37) is cluster-scoped: `spec.deviceSelector` picks
 * devices by driver, pool and device name, `spec.taint` is {key, value, effect} with
 * effect None, NoSchedule or NoExecute. NoSchedule keeps new allocations off the
 * device; claims already allocated keep it, so the pods holding it must be replaced.
 */
import { createHash } from 'node:crypto';
import { deviceKey, parseResourceId } from '../diagnosis/dra/health.js';
import type { DeviceTaintTarget, RemediationPlan } from './plan.js';

export const DEVICE_TAINT_KEY = 'rollout-doctor.io/unhealthy';
export const DEVICE_TAINT_VALUE = 'Unhealthy';
export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'rollout-doctor' } as const;
const DEVICE_TAINT_VERSIONS = ['resource.k8s.io/v1', 'resource.k8s.io/v1beta2'] as const;

/** A DNS subdomain that names the device without its (untrusted) characters: one rule per device. */
export function deviceTaintRuleName(device: { driver: string; pool: string; device: string }): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([device.driver, device.pool, device.device]))
    .digest('hex');
  return `rollout-doctor-unhealthy-${digest.slice(0, 16)}`;
}

export interface DeviceTaintRuleObject {
  apiVersion: string;
  kind: 'DeviceTaintRule';
  metadata: {
    name: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: {
    deviceSelector: { driver?: string; pool?: string; device?: string };
    taint: { key: string; value?: string; effect: string; timeAdded?: string };
  };
}

/** The object the executor creates. */
export function deviceTaintRuleBody(
  plan: Pick<RemediationPlan, 'id' | 'target'> & { deviceTaint: DeviceTaintTarget },
): DeviceTaintRuleObject {
  const t = plan.deviceTaint;
  return {
    apiVersion: t.apiVersion,
    kind: 'DeviceTaintRule',
    metadata: {
      name: t.name,
      labels: { ...MANAGED_BY },
      annotations: {
        'rollout-doctor.io/deployment': `${plan.target.namespace}/${plan.target.name}`,
        'rollout-doctor.io/plan': plan.id,
        'rollout-doctor.io/reason': `device reported Unhealthy in allocatedResourcesStatus on node ${t.node}`,
      },
    },
    spec: {
      deviceSelector: { driver: t.driver, pool: t.pool, device: t.device },
      taint: { key: t.taint.key, value: t.taint.value, effect: t.taint.effect },
    },
  };
}

/** A live rule is the one this target writes: same selector and taint key, value and effect. */
export function sameRule(live: DeviceTaintRuleObject, t: DeviceTaintTarget): boolean {
  const sel = live.spec?.deviceSelector ?? {};
  const taint = live.spec?.taint;
  return (
    sel.driver === t.driver &&
    sel.pool === t.pool &&
    sel.device === t.device &&
    taint?.key === t.taint.key &&
    (taint.value ?? '') === t.taint.value &&
    taint.effect === t.taint.effect
  );
}

/** Whether a plan's DeviceTaintTarget is one this tool writes: fixed taint, derived name, known version. */
export function checkDeviceTaintTarget(
  t: DeviceTaintTarget | undefined,
): { ok: true } | { ok: false; reason: string } {
  if (!t) return { ok: false, reason: 'names no DeviceTaintRule' };
  if (!(DEVICE_TAINT_VERSIONS as readonly string[]).includes(t.apiVersion)) {
    return {
      ok: false,
      reason: `DeviceTaintRule version ${JSON.stringify(t.apiVersion)} is not one this tool writes`,
    };
  }
  for (const field of ['driver', 'pool', 'device', 'node', 'resourceID'] as const) {
    if (typeof t[field] !== 'string' || t[field] === '')
      return { ok: false, reason: `the device has no ${field}` };
  }
  // The kubelet's report names the device itself (no CDI id): the rule must select that one device.
  const reported = parseResourceId(t.resourceID);
  if (reported && deviceKey(reported) !== deviceKey(t)) {
    return {
      ok: false,
      reason: `the rule selects ${JSON.stringify(deviceKey(t))}, not the device reported Unhealthy (${JSON.stringify(t.resourceID)})`,
    };
  }
  if (t.name !== deviceTaintRuleName(t)) {
    return {
      ok: false,
      reason: `the DeviceTaintRule name ${JSON.stringify(t.name)} is not derived from its device`,
    };
  }
  if (
    t.taint?.key !== DEVICE_TAINT_KEY ||
    t.taint.value !== DEVICE_TAINT_VALUE ||
    t.taint.effect !== 'NoSchedule'
  ) {
    return {
      ok: false,
      reason: `the taint must be ${DEVICE_TAINT_KEY}=${DEVICE_TAINT_VALUE}:NoSchedule`,
    };
  }
  return { ok: true };
}

/** "gpu.nvidia.com/gpu-node-1/gpu-0". */
export function deviceName(t: Pick<DeviceTaintTarget, 'driver' | 'pool' | 'device'>): string {
  return `${t.driver}/${t.pool}/${t.device}`;
}
