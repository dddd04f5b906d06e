/**
 * Applies taint-device and its Undo (untaint-device). The Deployment was re-read and
 * its preconditions checked by the executor; here, before anything is written:
 *
 * taint-device: the pods of the plan still exist under their uids and are controlled
 * by this Deployment's ReplicaSets, the device the rule selects is allocated to a claim
 * of one of them and reserved for it (read from the claims, never from a pod status,
 * which the report's CDI id cannot tie to a device: a crafted or stale plan cannot aim
 * the taint at another tenant's device), one of those holders still reports the device
 * Unhealthy (the device may have recovered: then nothing is written), and any rule
 * under the plan's name is this rule. Then the rule is created (server dry run first)
 * and the pods are deleted with uid preconditions (pod-deleter.ts). A rule already in
 * place with the same spec (a retry) is left as is.
 *
 * untaint-device: deletes the rule only if it is still the one the plan wrote (our
 * label, same selector and taint), with uid and resourceVersion preconditions.
 */
import type { Pod } from '../../diagnosis/k8s.js';
import type { ResourceClaim } from '../../diagnosis/k8s-dra.js';
import type { WorkloadObject as Deployment } from '../../diagnosis/snapshot/types.js';
import { podDevices } from '../../diagnosis/dra/health.js';
import { claimsNamedBy } from '../../diagnosis/dra/pod-claims.js';
import {
  deviceName,
  deviceTaintRuleBody,
  MANAGED_BY,
  sameRule,
  type DeviceTaintRuleObject,
} from '../../remediation/device-taint.js';
import type { DeviceTaintTarget, TaintDevicePlan, UntaintDevicePlan } from '../../remediation/plan.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import type { ApplyResult, DryRunResult } from './apply-result.js';
import { getObject, getObjectIfExists, listObjects } from '../list.js';
import type { FieldChange } from './patch-effect.js';
import { deletePods, foreignPod } from './pod-deleter.js';

type Version = 'v1' | 'v1beta2';

function versionOf(t: DeviceTaintTarget): Version {
  return t.apiVersion === 'resource.k8s.io/v1beta2' ? 'v1beta2' : 'v1';
}

async function readRule(client: KubeClient, t: DeviceTaintTarget): Promise<DeviceTaintRuleObject | null> {
  const rule = await getObjectIfExists<DeviceTaintRuleObject>(client, {
    resource: 'devicetaintrules',
    name: t.name,
    version: versionOf(t),
  });
  return rule ?? null;
}

function createRule(
  client: KubeClient,
  plan: TaintDevicePlan,
  dryRun: boolean,
): Promise<DeviceTaintRuleObject> {
  return client.call<DeviceTaintRuleObject>({
    verb: 'create',
    resource: 'devicetaintrules',
    version: versionOf(plan.deviceTaint),
    body: deviceTaintRuleBody(plan),
    query: { fieldManager: 'rollout-doctor', ...(dryRun ? { dryRun: 'All' } : {}) },
  });
}

function isOurs(rule: DeviceTaintRuleObject, t: DeviceTaintTarget): boolean {
  const label = Object.entries(MANAGED_BY)[0] ?? ['', ''];
  return rule.metadata.labels?.[label[0]] === label[1] && sameRule(rule, t);
}

/** The plan's pods as they are now: present under the same uid, or gone/replaced. */
async function livePods(client: KubeClient, plan: TaintDevicePlan): Promise<Pod[]> {
  const out: Pod[] = [];
  for (const p of plan.pods ?? []) {
    try {
      const pod = await getObject<Pod>(client, {
        resource: 'pods',
        namespace: plan.target.namespace,
        name: p.name,
      });
      if (pod.metadata.uid === p.uid && !pod.metadata.deletionTimestamp) out.push(pod);
    } catch (error) {
      if (!(error instanceof KubeApiError && error.status === 404)) throw error;
    }
  }
  return out;
}

/**
 * The plan's pods whose own claim (per-pod, shared or extended-resource) has the
 * device allocated and is reserved for the pod. Claims are listed by name (the worker
 * may list claims, not get them).
 */
async function holdersOf(
  client: KubeClient,
  namespace: string,
  pods: readonly Pod[],
  t: DeviceTaintTarget,
): Promise<Pod[]> {
  const out: Pod[] = [];
  for (const pod of pods) {
    for (const name of claimsNamedBy(pod)) {
      const { items } = await listObjects<ResourceClaim>(client, {
        resource: 'resourceclaims',
        namespace,
        query: { fieldSelector: `metadata.name=${name}` },
      });
      const holds = items.some(
        (c) =>
          c.metadata.name === name &&
          (c.status?.reservedFor ?? []).some((r) => r.resource === 'pods' && r.uid === pod.metadata.uid) &&
          (c.status?.allocation?.devices?.results ?? []).some(
            (r) => r.driver === t.driver && r.pool === t.pool && r.device === t.device,
          ),
      );
      if (holds) {
        out.push(pod);
        break;
      }
    }
  }
  return out;
}

type Checked =
  | { kind: 'go'; rule: DeviceTaintRuleObject | null }
  | { kind: 'done'; result: Exclude<ApplyResult, { status: 'applied' }> };

async function check(client: KubeClient, plan: TaintDevicePlan, live: Deployment): Promise<Checked> {
  const t = plan.deviceTaint;
  const rule = await readRule(client, t);
  if (rule && !sameRule(rule, t)) {
    return {
      kind: 'done',
      result: {
        status: 'refused',
        reason: `a DeviceTaintRule named ${t.name} exists with another selector or taint; nothing was written`,
      },
    };
  }
  const pods = await livePods(client, plan);
  if (pods.length === 0) {
    return rule
      ? {
          kind: 'done',
          result: {
            status: 'already-applied',
            reason: `DeviceTaintRule ${t.name} is in place and the pods that held ${deviceName(t)} are gone`,
            generation: live.metadata.generation ?? 0,
            changes: [{ path: `devicetaintrules/${t.name}`, before: undefined, after: 'present' }],
          },
        }
      : {
          kind: 'done',
          result: {
            status: 'refused',
            reason: `none of the pods that held ${deviceName(t)} exist any more; diagnose again`,
          },
        };
  }
  const foreign = await foreignPod(client, plan.target.namespace, plan.pods ?? [], live, plan.target.kind);
  if (foreign) return { kind: 'done', result: { status: 'refused', reason: foreign, tampered: true } };
  const holders = await holdersOf(client, plan.target.namespace, pods, t);
  if (holders.length === 0) {
    return {
      kind: 'done',
      result: {
        status: 'refused',
        reason: `device ${deviceName(t)} is not allocated to a claim reserved for ${pods.map((p) => p.metadata.name ?? '').join(', ')}; nothing was written`,
      },
    };
  }
  const stillUnhealthy = holders.some((p) =>
    podDevices(p).some((d) => d.device === t.resourceID && d.health === 'Unhealthy'),
  );
  if (!stillUnhealthy && !rule) {
    return {
      kind: 'done',
      result: {
        status: 'refused',
        reason: `device ${deviceName(t)} is no longer reported Unhealthy by ${holders.map((p) => p.metadata.name ?? '').join(', ')}; nothing was written`,
      },
    };
  }
  return { kind: 'go', rule };
}

function failed(error: unknown): ApplyResult {
  if (error instanceof KubeApiError && error.status === 404) {
    return {
      status: 'refused',
      reason: `the cluster does not serve devicetaintrules at the version the plan names (${error.message})`,
    };
  }
  if (error instanceof KubeApiError && (error.status === 422 || error.status === 400)) {
    return { status: 'refused', reason: `the API server rejected the DeviceTaintRule: ${error.message}` };
  }
  const retryable =
    error instanceof KubeApiError && (error.status === 0 || error.status === 429 || error.status >= 500);
  return { status: 'failed', reason: error instanceof Error ? error.message : String(error), retryable };
}

/** Server dry run of the rule's creation, after the live checks; the pods it would delete. */
export async function dryRunTaint(
  client: KubeClient,
  plan: TaintDevicePlan,
  live: Deployment,
): Promise<DryRunResult> {
  const t = plan.deviceTaint;
  try {
    const checked = await check(client, plan, live);
    if (checked.kind === 'done') return { ok: false, reason: checked.result.reason };
    if (!checked.rule) await createRule(client, plan, true);
    return {
      ok: true,
      changes: [
        ...(checked.rule
          ? []
          : [{ path: `devicetaintrules/${t.name}`, before: undefined, after: 'created' }]),
        ...(plan.pods ?? []).map((pod) => ({
          path: `pods/${pod.name}`,
          before: 'present',
          after: 'deleted',
        })),
      ],
    };
  } catch (error) {
    const result = failed(error);
    return { ok: false, reason: 'reason' in result ? result.reason : 'failed' };
  }
}

/** What deleting the rule would do: nothing once it is gone; refused when it is not ours. */
export async function dryRunUntaint(client: KubeClient, plan: UntaintDevicePlan): Promise<DryRunResult> {
  const t = plan.deviceTaint;
  try {
    const rule = await readRule(client, t);
    if (!rule) return { ok: true, changes: [] };
    if (!isOurs(rule, t))
      return { ok: false, reason: `DeviceTaintRule ${t.name} is not the one rollout-doctor wrote` };
    return {
      ok: true,
      changes: [{ path: `devicetaintrules/${t.name}`, before: 'present', after: 'deleted' }],
    };
  } catch (error) {
    const result = failed(error);
    return { ok: false, reason: 'reason' in result ? result.reason : 'failed' };
  }
}

/** What the write did, as applied: the Deployment is not written, its generation stays. */
function done(live: Deployment, changes: FieldChange[]): ApplyResult {
  return {
    status: 'applied',
    changes,
    generation: live.metadata.generation ?? 0,
    resourceVersion: live.metadata.resourceVersion ?? '',
  };
}

/** Deletes the rule, only while it is the one the plan wrote (uid and resourceVersion preconditions). */
export async function applyUntaint(
  client: KubeClient,
  plan: UntaintDevicePlan,
  live: Deployment,
  progress: (step: string) => void,
): Promise<ApplyResult> {
  const t = plan.deviceTaint;
  try {
    const rule = await readRule(client, t);
    if (!rule) {
      return {
        status: 'already-applied',
        reason: `DeviceTaintRule ${t.name} no longer exists`,
        generation: live.metadata.generation ?? 0,
        changes: [{ path: `devicetaintrules/${t.name}`, before: undefined, after: 'gone' }],
      };
    }
    if (!isOurs(rule, t)) {
      return {
        status: 'refused',
        reason: `DeviceTaintRule ${t.name} is not the one rollout-doctor wrote; left as is`,
      };
    }
    const preconditions = { uid: rule.metadata.uid, resourceVersion: rule.metadata.resourceVersion };
    const del = (dryRun: boolean): Promise<unknown> =>
      client.call({
        verb: 'delete',
        resource: 'devicetaintrules',
        version: versionOf(t),
        name: t.name,
        body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions },
        query: dryRun ? { dryRun: 'All' } : {},
      });
    progress('server dry run');
    await del(true);
    progress('deleting the DeviceTaintRule');
    await del(false);
    return done(live, [{ path: `devicetaintrules/${t.name}`, before: 'present', after: 'deleted' }]);
  } catch (error) {
    return failed(error);
  }
}

/** Creates the rule (or finds it in place), then deletes the pods that hold the device. */
export async function applyTaint(
  client: KubeClient,
  plan: TaintDevicePlan,
  live: Deployment,
  progress: (step: string) => void,
): Promise<ApplyResult> {
  const t = plan.deviceTaint;
  try {
    progress('re-checking the device and the pods holding it');
    const checked = await check(client, plan, live);
    if (checked.kind === 'done') return checked.result;
    const changes: FieldChange[] = [];
    if (!checked.rule) {
      progress('server dry run');
      await createRule(client, plan, true);
      progress('creating the DeviceTaintRule');
      try {
        await createRule(client, plan, false);
        changes.push({ path: `devicetaintrules/${t.name}`, before: undefined, after: 'created' });
      } catch (error) {
        // 409: created meanwhile (a retry whose first answer was lost): use it if it is ours.
        if (!(error instanceof KubeApiError && error.status === 409)) throw error;
        const now = await readRule(client, t);
        if (!now || !sameRule(now, t)) throw error;
        changes.push({ path: `devicetaintrules/${t.name}`, before: undefined, after: 'present' });
      }
    } else {
      changes.push({ path: `devicetaintrules/${t.name}`, before: undefined, after: 'present' });
    }
    progress('deleting the pods that hold the device');
    const deleted = await deletePods(client, plan, live);
    if (deleted.status === 'applied' || deleted.status === 'already-applied') {
      return done(live, [...changes, ...deleted.changes]);
    }
    return deleted.status === 'failed'
      ? {
          ...deleted,
          reason: `DeviceTaintRule ${t.name} is in place, but deleting the pods failed: ${deleted.reason}`,
        }
      : deleted;
  } catch (error) {
    return failed(error);
  }
}
