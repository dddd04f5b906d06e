/**
 * Whether the Deployment's owner will undo a plan's write, per field (DESIGN.md §4):
 *
 * - Argo CD compares and reverts only fields of its desired manifest, and only when
 *   the Application sets syncPolicy.automated.selfHeal (not read: 'unknown'); a field
 *   outside the manifest is neither compared nor reverted.
 * - Flux kustomize-controller re-applies Git at every reconcile and takes over fields
 *   written by kubectl* field managers; a field outside Git written by another manager
 *   (ours is `rollout-doctor`) survives. Suspension lives on the Kustomization (not
 *   read): a field in Git is reported as reverted.
 * - Flux helm-controller reverts the chart's fields only with drift detection on the
 *   HelmRelease (not read: 'unknown'), otherwise at the next upgrade.
 * - Helm and kubectl apply revert nothing by themselves: the next upgrade or apply
 *   puts back what the chart or manifest sets.
 *
 * ReplicaSets and pods are made by the Deployment controller, never in a manifest:
 * scaling an old ReplicaSet or deleting pods is reverted by no owner. Pure.
 */
import type { ManagedBy } from '../diagnosis/diagnosis.js';
import type { Deployment } from '../diagnosis/k8s.js';
import {
  desiredManifest,
  manifestSets,
  OUR_FIELD_MANAGER,
  type DesiredManifest,
} from '../diagnosis/ownership.js';
import { getAt, jsonEqual, parsePointer } from './json-pointer.js';
import { ALLOWED_PATHS, patchWrites } from './patch-allowlist.js';
import type { PlanDrift, RemediationPlan } from './plan.js';
import { APPLY_TIME } from './restart-time.js';

type Verdict = PlanDrift['reverted'];

/** "Argo CD application shop", "Flux Kustomization flux-system/apps", ... */
export function ownerName(owner: ManagedBy): string {
  const ns = owner.namespace ? `${owner.namespace}/` : '';
  switch (owner.tool) {
    case 'argocd':
      return `Argo CD application ${ns}${owner.name}`;
    case 'flux-kustomize':
      return `Flux Kustomization ${ns}${owner.name}`;
    case 'flux-helm':
      return `Flux HelmRelease ${ns}${owner.name}`;
    case 'helm':
      return `Helm release ${owner.name}${owner.namespace ? ` in ${owner.namespace}` : ''}`;
    case 'kubectl':
      return `kubectl apply (field manager ${owner.name})`;
  }
}

/** "spec.strategy.rollingUpdate.maxSurge", annotation keys in brackets. */
export function fieldName(pointer: string): string {
  return parsePointer(pointer)
    .map((t, i) => (/[./]/.test(t) ? `[${t}]` : i === 0 ? t : `.${t}`))
    .join('');
}

/** The leaves the plan's patch changes on the live Deployment (a value equal to the live one changes nothing). */
export function changedFields(plan: RemediationPlan, live: Deployment): string[] {
  if (!plan.patch) return [];
  const writes = patchWrites(plan.patch, ALLOWED_PATHS[plan.kind], live);
  if (!writes.ok) return [];
  if (plan.patch.type === 'json') return [...new Set(writes.paths)];
  return [
    ...new Set(
      writes.paths.filter((path) => {
        const value = getAt(plan.patch?.body, path);
        if (value === APPLY_TIME) return true;
        return !jsonEqual(value === null ? undefined : value, getAt(live, path));
      }),
    ),
  ];
}

interface FieldVerdict {
  reverted: Verdict;
  why: string;
}

function fieldVerdict(
  owner: ManagedBy,
  inManifest: boolean | undefined,
  manifest: DesiredManifest,
): FieldVerdict {
  const unknownWhy = manifest.source === 'unknown' ? manifest.reason : 'the manifest is not known';
  switch (owner.tool) {
    case 'argocd':
      if (inManifest === undefined)
        return { reverted: 'unknown', why: `Argo CD's manifest is not known (${unknownWhy})` };
      return inManifest
        ? {
            reverted: 'unknown',
            why: "in Argo CD's manifest: reverted within seconds if self-heal is set on the Application (syncPolicy.automated.selfHeal, not read), else at its next sync",
          }
        : {
            reverted: false,
            why: "not in Argo CD's manifest: Argo CD neither compares nor reverts it",
          };
    case 'flux-kustomize':
      if (inManifest === undefined)
        return { reverted: 'unknown', why: `what Git sets is not known (${unknownWhy})` };
      return inManifest
        ? {
            reverted: true,
            why: 'in Git: kustomize-controller applies it back at its next reconcile (unless the Kustomization is suspended, not read)',
          }
        : {
            reverted: false,
            why: `not in Git and written by field manager ${OUR_FIELD_MANAGER}: kustomize-controller takes over only kubectl* managers' fields, so it stays`,
          };
    case 'flux-helm':
      if (inManifest === undefined)
        return { reverted: 'unknown', why: `what the chart sets is not known (${unknownWhy})` };
      return inManifest
        ? {
            reverted: 'unknown',
            why: 'set by the chart: helm-controller reverts it if drift detection is enabled on the HelmRelease (not read), else at the next upgrade',
          }
        : { reverted: false, why: 'not set by the chart: helm-controller leaves it' };
    case 'helm':
      if (inManifest === undefined)
        return {
          reverted: false,
          why: `Helm reverts nothing between upgrades; whether the chart sets it is not known (${unknownWhy}), so the next helm upgrade may put the chart's value back`,
        };
      return inManifest
        ? {
            reverted: false,
            why: "set by the chart: Helm reverts nothing between upgrades, but the next helm upgrade puts the chart's value back",
          }
        : { reverted: false, why: 'not set by the chart: helm upgrade leaves it' };
    case 'kubectl':
      return inManifest
        ? {
            reverted: false,
            why: "in the applied manifest: nothing reverts it, but the next kubectl apply of that manifest puts the manifest's value back",
          }
        : {
            reverted: false,
            why: 'not in the applied manifest: nothing reverts it, and a later kubectl apply leaves it',
          };
  }
}

function combine(verdicts: Verdict[]): Verdict {
  if (verdicts.includes(true)) return true;
  if (verdicts.includes('unknown')) return 'unknown';
  return false;
}

/**
 * The drift verdict of one plan against the Deployment it writes, or undefined when
 * no owner was found (nothing applies the Deployment again).
 *
 * @example planDrift(plan, snapshot.deployment, detectOwner({ group: 'apps', kind: 'Deployment', metadata }))
 */
export function planDrift(
  plan: RemediationPlan,
  live: Deployment,
  owner: ManagedBy | undefined,
): PlanDrift | undefined {
  if (!owner) return undefined;
  const by = ownerName(owner);
  if (plan.kind === 'scale-old-replicaset' && plan.replicaSet) {
    return {
      reverted: false,
      by,
      fields: [`replicaset/${plan.replicaSet.name} spec.replicas`],
      why: `ReplicaSets are made by the Deployment controller and are in no manifest, so ${by} never reverts this; the Deployment spec is untouched. The Deployment controller keeps an old ReplicaSet at 0 at 0; it scales it up again only if the pod template is reverted to that ReplicaSet's (rollout undo, Git revert, self-heal of a reverted template)`,
    };
  }
  if (plan.deviceTaint) {
    return {
      reverted: false,
      by,
      fields: [`devicetaintrule/${plan.deviceTaint.name}`],
      why: `writes a cluster-scoped DeviceTaintRule and deletes pods: neither is in ${by}'s manifest of this Deployment, whose spec is untouched`,
    };
  }
  if (plan.kind === 'delete-pods' || !plan.patch) {
    return {
      reverted: false,
      by,
      fields: [],
      why: `deletes pods only: pods are in no manifest, and their ReplicaSet replaces them`,
    };
  }
  const manifest = desiredManifest(live.metadata, owner);
  const fields = changedFields(plan, live);
  const groups = new Map<string, { reverted: Verdict; fields: string[] }>();
  for (const pointer of fields) {
    const verdict = fieldVerdict(owner, manifestSets(manifest, parsePointer(pointer)), manifest);
    const group = groups.get(verdict.why) ?? { reverted: verdict.reverted, fields: [] };
    group.fields.push(fieldName(pointer));
    groups.set(verdict.why, group);
  }
  const source =
    manifest.source === 'managed-fields'
      ? ` (manifest read from the managedFields of ${manifest.manager})`
      : manifest.source === 'last-applied'
        ? ' (manifest read from the last-applied-configuration annotation)'
        : '';
  const why =
    groups.size === 0
      ? 'the patch changes no field of the live Deployment'
      : [...groups.entries()].map(([reason, g]) => `${g.fields.join(', ')}: ${reason}`).join('; ') + source;
  return {
    reverted: combine([...groups.values()].map((g) => g.reverted)),
    by,
    fields: fields.map(fieldName),
    why,
  };
}
