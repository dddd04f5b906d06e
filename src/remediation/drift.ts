/**
 * Whether the Deployment's owner will undo a plan's write, per field (DESIGN.md §4):
 *
 * - Argo CD compares and reverts only fields of its desired manifest, and only when
 *   the Application syncs automatically with selfHeal; a field outside the manifest,
 *   or one its ignoreDifferences leaves out, is not reverted.
 * - Flux kustomize-controller re-applies Git at every reconcile and takes over fields
 *   written by kubectl* field managers; a field outside Git written by another manager
 *   (ours is `rollout-doctor`) survives. A field in Git is reverted unless the
 *   Kustomization is suspended or the Deployment itself opts out (label or annotation,
 *   any case, read as fluxcd/pkg ssa does): `kustomize.toolkit.fluxcd.io/reconcile:
 *   disabled` or `.../ssa: Ignore` (the object is skipped), `.../ssa: IfNotPresent`
 *   (applied only while absent).
 * - Flux helm-controller reverts the chart's fields only with drift detection enabled
 *   on the HelmRelease (and the field not in its ignore rules), otherwise at the next
 *   upgrade; an object labelled or annotated `helm.toolkit.fluxcd.io/driftDetection:
 *   disabled` is left out of drift correction (not reverted until the next upgrade).
 *
 * Those settings live on the owner's object (owner-settings.ts), read where RBAC and the
 * cluster allow (snapshot.ownerSettings). Not read (forbidden, not served, not found,
 * not in a dump): whatever depends on them is 'unknown', and the why names the read
 * that settles it. A read never makes a verdict more confident than the object says.
 * - Helm and kubectl apply revert nothing by themselves: the next upgrade or apply
 *   puts back what the chart or manifest sets.
 *
 * What the manifest sets is read from the owner's managedFields (server-side apply,
 * Helm) or last-applied. A field missing from the owner's entries but held by another
 * writer (a kubectl edit, an earlier write of ours and its Undo) may have been taken from
 * the owner, which loses a field to any write that changes it, so it is 'unknown', not
 * "not in the manifest" (the restart marker excepted: restarts write it, manifests do
 * not carry it).
 *
 * ReplicaSets and pods are made by the Deployment controller, never in a manifest:
 * scaling an old ReplicaSet or deleting pods is reverted by no owner.
 *
 * No owner recognised is not "no drift" (unknown is not empty); the managedFields decide:
 * - none at all (a dump saved without --show-managed-fields): 'unknown', no writer can
 *   be ruled out;
 * - a manager other than kubectl*, kube-controller-manager and rollout-doctor, or a
 *   GitOps-looking label or annotation that proved no owner: 'unknown', naming them and
 *   which of the plan's fields they hold;
 * - only kubectl*, kube-controller-manager (and rollout-doctor): false, nothing applies
 *   the object again (a later kubectl apply or replace of a manifest setting the field
 *   would put it back).
 * Pure.
 */
import type { ManagedBy } from '../diagnosis/ownership.js';
import type { ObjectMeta } from '../diagnosis/k8s.js';
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import type { OwnerSettingsRead } from '../diagnosis/snapshot/types.js';
import {
  desiredManifest,
  FLUX_HELM_DRIFT_DETECTION,
  FLUX_RECONCILE,
  FLUX_SSA,
  KUBECTL_SERVER_SIDE_APPLY,
  managedFieldsOf,
  manifestSets,
  otherHolders,
  OUR_FIELD_MANAGER,
  unrecognisedWriters,
  type DesiredManifest,
} from '../diagnosis/ownership.js';
import { getAt, jsonEqual, parsePointer, readablePath } from './json-pointer.js';
import { kindOf } from './kinds/index.js';
import { patchWrites } from './patch-allowlist.js';
import type { PlanDrift, RemediationPlan } from './plan.js';
import { APPLY_TIME, RESTARTED_AT_POINTER } from './restart-time.js';
import { ownerSettings, type OwnerSettings } from './owner-settings.js';
import { REMEDIATION_SENTENCES as S } from './sentences.js';

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
      return owner.name === KUBECTL_SERVER_SIDE_APPLY
        ? S.kubectlServerSideOwner.en({ manager: owner.name })
        : S.kubectlOwner.en({ manager: owner.name });
  }
}

/** "spec.strategy.rollingUpdate.maxSurge", annotation keys in brackets (json-pointer.ts readablePath). */
const fieldName = readablePath;

/** The leaves the plan's patch changes on the live Deployment (a value equal to the live one changes nothing). */
function changedFields(plan: RemediationPlan, live: WorkloadObject): string[] {
  if (!plan.patch) return [];
  const writes = patchWrites(plan.patch, kindOf(plan).paths(plan.target.kind), live);
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

/** A label or annotation of the object with this value, compared as Flux does (any case). */
function metadataSays(metadata: ObjectMeta, key: string, value: string): string | undefined {
  for (const [where, map] of [
    ['annotation', metadata.annotations],
    ['label', metadata.labels],
  ] as const) {
    const v = map?.[key];
    if (v && v.toLowerCase() === value.toLowerCase()) return `${where} ${key}: ${v}`;
  }
  return undefined;
}

/**
 * The Deployment's own opt-out of its owner's reconciling (fluxcd/pkg ssa
 * `shouldSkipApply`, helm-controller's drift detection exclusion): why a field the
 * manifest sets is not put back, or undefined.
 */
function optOut(owner: ManagedBy, metadata: ObjectMeta): string | undefined {
  if (owner.tool === 'flux-kustomize') {
    const skipped =
      metadataSays(metadata, FLUX_RECONCILE, 'disabled') ?? metadataSays(metadata, FLUX_SSA, 'ignore');
    if (skipped)
      return `the object carries ${skipped}: kustomize-controller skips it and applies nothing to it while that stays`;
    const once = metadataSays(metadata, FLUX_SSA, 'ifnotpresent');
    if (once)
      return `the object carries ${once}: kustomize-controller applies it only when it does not exist, so Git's value comes back only if the object is re-created`;
  }
  if (owner.tool === 'flux-helm') {
    const off = metadataSays(metadata, FLUX_HELM_DRIFT_DETECTION, 'disabled');
    if (off)
      return `the object carries ${off}: helm-controller leaves it out of drift correction, and the next upgrade puts the chart's value back`;
  }
  return undefined;
}

/** The owner's settings, or why they are not known (the read that settles it). */
type SettingsView = { ok: true; settings: OwnerSettings } | { ok: false; why: string };

function fieldVerdict(
  owner: ManagedBy,
  inManifest: boolean | undefined,
  manifest: DesiredManifest,
  skipped: string | undefined,
  view: SettingsView,
  tokens: readonly string[],
): FieldVerdict {
  const unknownWhy = manifest.source === 'unknown' ? manifest.reason : 'the manifest is not known';
  if (skipped && inManifest !== false) return { reverted: false, why: skipped };
  switch (owner.tool) {
    case 'argocd':
      return argoVerdict(inManifest, unknownWhy, view, tokens);
    case 'flux-kustomize':
      return kustomizeVerdict(inManifest, unknownWhy, view);
    case 'flux-helm':
      return helmReleaseVerdict(inManifest, unknownWhy, view, tokens);
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
      if (inManifest === undefined)
        return {
          reverted: 'unknown',
          why: S.appliedUnknown.en({ why: unknownWhy }),
        };
      if (inManifest && manifest.source === 'managed-fields')
        return {
          reverted: false,
          why: `in the manifest applied server-side: nothing reverts it; the write moves the field to field manager ${OUR_FIELD_MANAGER}, so the next kubectl apply --server-side of that manifest stops on a conflict for it and puts the manifest's value back only with --force-conflicts`,
        };
      return inManifest
        ? {
            reverted: false,
            why: S.inApplied.en(),
          }
        : {
            reverted: false,
            why: S.notInApplied.en(),
          };
  }
}

function argoVerdict(
  inManifest: boolean | undefined,
  unknownWhy: string,
  view: SettingsView,
  tokens: readonly string[],
): FieldVerdict {
  if (inManifest === false)
    return { reverted: false, why: "not in Argo CD's manifest: Argo CD neither compares nor reverts it" };
  const app = view.ok && view.settings.kind === 'Application' ? view.settings : undefined;
  if (!app) {
    const notRead = view.ok ? 'not read' : view.why;
    return inManifest === undefined
      ? {
          reverted: 'unknown',
          why: `Argo CD's manifest is not known (${unknownWhy}), nor the Application's self-heal (${notRead})`,
        }
      : {
          reverted: 'unknown',
          why: `in Argo CD's manifest: reverted within seconds if self-heal is set on the Application (syncPolicy.automated.selfHeal: ${notRead}), else at its next sync`,
        };
  }
  if (app.listsDeployment === false)
    return {
      reverted: 'unknown',
      why: 'the Application read does not list this workload among its resources (status.resources): another Application or Argo CD instance may apply it',
    };
  if (!app.automated)
    return {
      reverted: false,
      why: `automated sync is off on the Application (${app.automatedOff ?? 'spec.syncPolicy.automated'}): Argo CD shows the workload OutOfSync and puts Git's value back only at a manual sync`,
    };
  if (!app.selfHeal)
    return {
      reverted: false,
      why: "self-heal is off on the Application (spec.syncPolicy.automated.selfHeal not true): Argo CD does not revert live changes; the next automated sync (a new commit) puts Git's value back",
    };
  const ignored = app.ignores(tokens);
  if (ignored === 'yes')
    return {
      reverted: false,
      why: `the Application's spec.ignoreDifferences leaves it out of the comparison, so self-heal does not revert it; ${app.respectIgnoreDifferences ? 'with RespectIgnoreDifferences=true a sync keeps the live value too' : "a sync for another change applies Git's value again (no RespectIgnoreDifferences=true)"}`,
    };
  if (inManifest === undefined)
    return {
      reverted: 'unknown',
      why: `self-heal is on, but Argo CD's manifest is not known (${unknownWhy}): if Git sets it, Argo CD reverts it within seconds`,
    };
  if (ignored === 'maybe')
    return {
      reverted: 'unknown',
      why: "in Argo CD's manifest with self-heal on, but a jqPathExpressions entry of spec.ignoreDifferences may leave it out (not evaluated)",
    };
  return {
    reverted: true,
    why: "in Argo CD's manifest and self-heal is on (spec.syncPolicy.automated.selfHeal: true): Argo CD puts Git's value back within seconds of seeing the drift (unless argocd-cm ignores the field for every Application, or a sync window holds syncs)",
  };
}

function kustomizeVerdict(
  inManifest: boolean | undefined,
  unknownWhy: string,
  view: SettingsView,
): FieldVerdict {
  if (inManifest === false)
    return {
      reverted: false,
      why: `not in Git and written by field manager ${OUR_FIELD_MANAGER}: kustomize-controller takes over only kubectl* managers' fields, so it stays`,
    };
  const ks = view.ok && view.settings.kind === 'Kustomization' ? view.settings : undefined;
  if (ks?.suspend)
    return {
      reverted: false,
      why: "the Kustomization is suspended (spec.suspend: true): kustomize-controller applies nothing until it is resumed, then Git's value comes back",
    };
  if (inManifest === undefined)
    return {
      reverted: 'unknown',
      why: `what Git sets is not known (${unknownWhy})${ks ? '' : `, nor whether the Kustomization is suspended (${view.ok ? 'not read' : view.why})`}`,
    };
  if (!ks)
    return {
      reverted: 'unknown',
      why: `in Git: kustomize-controller applies it back at its next reconcile unless the Kustomization is suspended (spec.suspend: ${view.ok ? 'not read' : view.why})`,
    };
  return {
    reverted: true,
    why: `in Git and the Kustomization is not suspended: kustomize-controller applies it back at its next reconcile${ks.interval ? ` (every ${ks.interval})` : ''}`,
  };
}

function helmReleaseVerdict(
  inManifest: boolean | undefined,
  unknownWhy: string,
  view: SettingsView,
  tokens: readonly string[],
): FieldVerdict {
  if (inManifest === false)
    return { reverted: false, why: 'not set by the chart: helm-controller leaves it' };
  const hr = view.ok && view.settings.kind === 'HelmRelease' ? view.settings : undefined;
  if (!hr) {
    const notRead = view.ok ? 'not read' : view.why;
    return inManifest === undefined
      ? {
          reverted: 'unknown',
          why: `what the chart sets is not known (${unknownWhy}), nor the HelmRelease's drift detection (${notRead})`,
        }
      : {
          reverted: 'unknown',
          why: `set by the chart: helm-controller reverts it if drift detection is enabled on the HelmRelease (spec.driftDetection.mode: ${notRead}), else at the next upgrade`,
        };
  }
  if (hr.suspend)
    return {
      reverted: false,
      why: "the HelmRelease is suspended (spec.suspend: true): helm-controller does nothing until it is resumed; the next upgrade after that puts the chart's value back",
    };
  if (hr.mode !== 'enabled')
    return {
      reverted: false,
      why:
        hr.mode === 'warn'
          ? "drift detection only warns (spec.driftDetection.mode: warn): helm-controller reports the drift and corrects nothing; the next upgrade puts the chart's value back"
          : "drift detection is off on the HelmRelease (spec.driftDetection.mode unset or disabled): the next upgrade puts the chart's value back",
    };
  const ignored = hr.ignores(tokens);
  if (ignored === 'yes')
    return {
      reverted: false,
      why: "spec.driftDetection.ignore leaves it out of drift detection: the next upgrade puts the chart's value back",
    };
  if (inManifest === undefined)
    return {
      reverted: 'unknown',
      why: `drift detection is enabled, but what the chart sets is not known (${unknownWhy}): if the chart sets it, helm-controller reverts it at its next reconcile`,
    };
  if (ignored === 'maybe')
    return {
      reverted: 'unknown',
      why: 'set by the chart with drift detection enabled, but a spec.driftDetection.ignore rule targets objects by label or annotation selector (not evaluated) and may leave it out',
    };
  return {
    reverted: true,
    why: `set by the chart and drift detection is enabled (spec.driftDetection.mode: enabled): helm-controller corrects it at its next reconcile${hr.interval ? ` (every ${hr.interval})` : ''}`,
  };
}

function combine(verdicts: Verdict[]): Verdict {
  if (verdicts.includes(true)) return true;
  if (verdicts.includes('unknown')) return 'unknown';
  return false;
}

/**
 * The drift verdict of one plan against the Deployment it writes; without an owner,
 * what the managedFields show (unownedDrift).
 *
 * @example planDrift(plan, snapshot.deployment, detectOwner({ group: 'apps', kind: 'Deployment', metadata }))
 */
export function planDrift(
  plan: RemediationPlan,
  live: WorkloadObject,
  owner: ManagedBy | undefined,
  settingsRead?: OwnerSettingsRead,
): PlanDrift {
  if (!owner) return unownedDrift(plan, live);
  const by = ownerName(owner);
  // A write outside the workload (a ReplicaSet's scale, pods, a DeviceTaintRule): no manifest holds it.
  const rule = kindOf(plan).drift;
  if (rule.looksAt === 'objects-outside-the-manifest') {
    const { fields, why } = rule.verdict(plan, by);
    return { reverted: false, by, fields, why };
  }
  const manifest = desiredManifest(live.metadata, owner);
  const fields = changedFields(plan, live);
  const groups = new Map<string, { reverted: Verdict; fields: string[] }>();
  const skipped = optOut(owner, live.metadata);
  const view = ownerSettings(settingsRead, live, plan.target.kind);
  for (const pointer of fields) {
    const tokens = parsePointer(pointer);
    const inManifest = manifestSets(manifest, tokens);
    // Not in the owner's entries, but held by another writer that may have taken it
    // from them: the entries no longer tell (the restart marker excepted: manifests do
    // not carry it, restarts write it).
    const takers =
      inManifest === false && manifest.source === 'managed-fields' && pointer !== RESTARTED_AT_POINTER
        ? otherHolders(live.metadata, manifest, tokens)
        : [];
    const taken: DesiredManifest = {
      source: 'unknown',
      reason: `the owner's managedFields entries do not hold it, but field manager ${takers.join(', ')} does, and a write that changes a field takes it from the manifest's owner until it applies again`,
    };
    const verdict =
      takers.length > 0
        ? fieldVerdict(owner, undefined, taken, skipped, view, tokens)
        : fieldVerdict(owner, inManifest, manifest, skipped, view, tokens);
    const group = groups.get(verdict.why) ?? { reverted: verdict.reverted, fields: [] };
    group.fields.push(fieldName(pointer));
    groups.set(verdict.why, group);
  }
  const said = [...groups.entries()].map(([reason, g]) => ({ fields: g.fields.join(', '), reason }));
  // The source closes the last group's clause.
  const last = said.pop();
  const closing =
    last === undefined
      ? undefined
      : manifest.source === 'managed-fields'
        ? S.fieldsReasonManaged.en({ ...last, manager: manifest.manager })
        : manifest.source === 'last-applied'
          ? S.fieldsReasonLastApplied.en(last)
          : S.fieldsReason.en(last);
  const why =
    closing === undefined
      ? S.noFieldChanged.en()
      : [...said.map((g) => S.fieldsReason.en(g)), closing].join('; ');
  return {
    reverted: combine([...groups.values()].map((g) => g.reverted)),
    by,
    fields: fields.map(fieldName),
    why,
  };
}

const NO_OWNER = S.noOwner.en();
const NO_OWNER_WHY = `${NO_OWNER} (no Flux labels, Argo CD tracking, Helm release annotations or kubectl last-applied)`;

/** The verdict when no owner was recognised, from the managedFields and markers the Deployment carries. */
function unownedDrift(plan: RemediationPlan, live: WorkloadObject): PlanDrift {
  const base = { by: NO_OWNER, ownerRecognised: false as const };
  const rule = kindOf(plan).drift;
  if (rule.looksAt === 'objects-outside-the-manifest') {
    const { fields, why } = rule.verdict(plan, undefined);
    return { ...base, reverted: false, fields, why };
  }
  const pointers = changedFields(plan, live);
  const fields = pointers.map(fieldName);
  const writers = unrecognisedWriters(live.metadata);
  if (writers.managedFields === 'absent') {
    return {
      ...base,
      reverted: 'unknown',
      fields,
      why: S.noOwnerNoManagedFields.en({ kind: plan.target.kind }),
    };
  }
  const parts: string[] = [];
  for (const { manager, fields: trees } of writers.foreignManagers) {
    const manifest: DesiredManifest = { source: 'managed-fields', manager, fields: trees };
    const held = pointers.filter((p) => manifestSets(manifest, parsePointer(p)) === true).map(fieldName);
    parts.push(
      held.length > 0 ? `${manager} (holds ${held.join(', ')})` : `${manager} (holds none of these fields)`,
    );
  }
  if (parts.length > 0 || writers.markers.length > 0) {
    const managers =
      parts.length > 0
        ? `managedFields name field manager(s) ${parts.join(', ')}, not kubectl, the Kubernetes controllers or ${OUR_FIELD_MANAGER}`
        : '';
    const markers =
      writers.markers.length > 0
        ? `${writers.markers.join(', ')} ${writers.markers.length === 1 ? 'looks' : 'look'} like a GitOps tool's but ${writers.markers.length === 1 ? 'proves' : 'prove'} no owner of this ${plan.target.kind}`
        : '';
    return {
      ...base,
      reverted: 'unknown',
      fields,
      why: `${NO_OWNER_WHY}, but ${[managers, markers].filter(Boolean).join('; and ')}: if one is a controller or pipeline that applies the ${plan.target.kind}, it may put the fields back`,
    };
  }
  const seen = [...new Set(managedFieldsManagers(live).filter((m) => m !== OUR_FIELD_MANAGER))];
  return {
    ...base,
    reverted: false,
    fields,
    why: S.noOwnerOnlyManagers.en({ kind: plan.target.kind, managers: seen.join(', ') || OUR_FIELD_MANAGER }),
  };
}

function managedFieldsManagers(live: WorkloadObject): string[] {
  return managedFieldsOf(live.metadata).map((e) => e.manager ?? '(unnamed)');
}
