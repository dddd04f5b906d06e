/**
 * Who applies a Deployment, read only from the Deployment's own metadata (labels,
 * annotations, managedFields) as the API server returned it, and what that owner's
 * desired manifest holds (DESIGN.md §4). Pure: no client, no clock.
 *
 * Order, first proof wins:
 * 1. Flux: labels kustomize.toolkit.fluxcd.io/name + /namespace (kustomize-controller)
 *    or helm.toolkit.fluxcd.io/name + /namespace (helm-controller). Objects of a Flux
 *    HelmRelease also carry the Helm annotations, hence Flux first.
 * 2. Argo CD: the annotation argocd.argoproj.io/tracking-id naming this very object
 *    (`<app>:apps/Deployment:<ns>/<name>`; a ReplicaSet inherits the Deployment's
 *    annotations, so a tracking id naming another object proves nothing), or the
 *    label app.kubernetes.io/instance together with an Argo CD manager in managedFields
 *    (label tracking): `argocd-controller`, or `argocd-application-controller` that
 *    older Argo CD leaves (gitops-engine wrote without a field manager before it set
 *    one, so the API server named the binary: argo-cd#20815).
 * 3. Helm: annotations meta.helm.sh/release-name + /release-namespace. The label
 *    app.kubernetes.io/managed-by: Helm alone is not proof (charts rendered by
 *    Argo CD or `helm template | kubectl apply` carry it too).
 * 4. kubectl apply, with no GitOps marker at all: `kubectl apply --server-side` (field
 *    manager kubectl, operation Apply), or the last-applied-configuration annotation
 *    with a kubectl field manager (the one holding the annotation is named). Without
 *    any managedFields (older objects, dumps saved without --show-managed-fields) the
 *    annotation alone is taken as
 *    kubectl client-side apply, the evidence saying managedFields were absent, unless
 *    the app.kubernetes.io/instance label leaves Argo CD label tracking open;
 *    managedFields that show no kubectl manager are not kubectl apply.
 */
import { z } from 'zod';
import { isAtomicField } from './atomic-fields.js';
import type { ObjectMeta } from './k8s.js';
import { DIAGNOSIS_SENTENCES as S } from './sentences.js';

/** The tool that applies the Deployment, read from its own metadata (DESIGN.md §4). */
type ManagerTool = 'argocd' | 'flux-kustomize' | 'flux-helm' | 'helm' | 'kubectl';

export interface ManagedBy {
  tool: ManagerTool;
  /** Argo CD application, Flux Kustomization / HelmRelease, Helm release; for kubectl the field manager. */
  name: string;
  /** Namespace of the Flux object or Helm release, when the metadata says. */
  namespace?: string;
  /** The label, annotation or field manager that proves it. */
  evidence: string;
}

const FLUX_KUSTOMIZE_NAME = 'kustomize.toolkit.fluxcd.io/name';
const FLUX_KUSTOMIZE_NAMESPACE = 'kustomize.toolkit.fluxcd.io/namespace';
const FLUX_HELM_NAME = 'helm.toolkit.fluxcd.io/name';
const FLUX_HELM_NAMESPACE = 'helm.toolkit.fluxcd.io/namespace';
/** Per-object opt-outs, as label or annotation: `disabled` (kustomize-controller skips the object). */
export const FLUX_RECONCILE = 'kustomize.toolkit.fluxcd.io/reconcile';
/** `Ignore` (skipped), `IfNotPresent` (applied only while absent), `Merge`, `Override`. */
export const FLUX_SSA = 'kustomize.toolkit.fluxcd.io/ssa';
/** `disabled`: helm-controller leaves the object out of drift detection and correction. */
export const FLUX_HELM_DRIFT_DETECTION = 'helm.toolkit.fluxcd.io/driftDetection';
const ARGOCD_TRACKING_ID = 'argocd.argoproj.io/tracking-id';
const INSTANCE_LABEL = 'app.kubernetes.io/instance';
const HELM_RELEASE_NAME = 'meta.helm.sh/release-name';
const HELM_RELEASE_NAMESPACE = 'meta.helm.sh/release-namespace';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Field managers of each tool, as they appear in managedFields. */
const ARGOCD_MANAGER = 'argocd-controller';
/** What older Argo CD wrote under (no field manager set, so the binary's name: argo-cd#20815). */
const ARGOCD_LEGACY_MANAGER = 'argocd-application-controller';
/** Argo CD's field managers, the current one first. */
const ARGOCD_MANAGERS: readonly string[] = [ARGOCD_MANAGER, ARGOCD_LEGACY_MANAGER];
const FLUX_KUSTOMIZE_MANAGER = 'kustomize-controller';
const FLUX_HELM_MANAGER = 'helm-controller';
const HELM_MANAGER = 'helm';
/** The manager kubectl's client-side apply writes under. */
const KUBECTL_CLIENT_SIDE_APPLY = 'kubectl-client-side-apply';
/** The manager of `kubectl apply --server-side` (its default --field-manager), with operation Apply. */
export const KUBECTL_SERVER_SIDE_APPLY = 'kubectl';
/** The field manager of every write rollout-doctor makes. */
export const OUR_FIELD_MANAGER = 'rollout-doctor';

const managedFieldsSchema = z.array(
  z
    .object({
      manager: z.string().optional(),
      operation: z.string().optional(),
      apiVersion: z.string().optional(),
      subresource: z.string().optional(),
      fieldsV1: z.record(z.string(), z.unknown()).optional(),
    })
    .passthrough(),
);
type ManagedFieldsEntry = z.infer<typeof managedFieldsSchema>[number];

/** The object's managedFields entries; empty when absent or not in the API's shape. */
export function managedFieldsOf(metadata: ObjectMeta): ManagedFieldsEntry[] {
  const raw: unknown = (metadata as { managedFields?: unknown }).managedFields;
  const parsed = managedFieldsSchema.safeParse(raw ?? []);
  return parsed.success ? parsed.data : [];
}

const isKubectlManager = (manager: string | undefined): boolean =>
  manager !== undefined && manager.startsWith('kubectl');

const isServerSideKubectlApply = (m: ManagedFieldsEntry): boolean =>
  m.manager === KUBECTL_SERVER_SIDE_APPLY && m.operation === 'Apply' && !m.subresource;

/** Whether the entry holds the last-applied-configuration annotation (the manager that wrote it). */
function holdsLastApplied(m: ManagedFieldsEntry): boolean {
  const metadata = m.fieldsV1?.['f:metadata'];
  const annotations = isRecord(metadata) ? metadata['f:annotations'] : undefined;
  return isRecord(annotations) && annotations[`f:${LAST_APPLIED}`] !== undefined;
}

/** The object a metadata block belongs to: its kind (with API group) decides tracking ids. */
interface OwnedObject {
  /** "apps" for Deployments and ReplicaSets. */
  group: string;
  kind: string;
  metadata: ObjectMeta;
}

/**
 * An Argo CD application instance name: `<app>` for an Application in Argo CD's own
 * namespace, `<ns>_<app>` for one elsewhere (apps in any namespace: AppInstanceName in
 * argo-cd util/argo), `<ns>/<app>` as its CLI and API qualify names. Neither `_` nor `/`
 * can appear in a Kubernetes name, so the split is unambiguous.
 */
function splitAppName(value: string): { app: string; appNamespace?: string } {
  for (const separator of ['/', '_']) {
    const at = value.indexOf(separator);
    if (at > 0 && at < value.length - 1)
      return { app: value.slice(at + 1), appNamespace: value.slice(0, at) };
  }
  return { app: value };
}

/**
 * `<app>:<group>/<kind>:<ns>/<name>`, split as Argo CD's ParseAppInstanceValue does
 * (the application name is everything before the first colon).
 */
function parseTrackingId(value: string): {
  app: string;
  appNamespace?: string;
  group: string;
  kind: string;
  namespace: string;
  name: string;
} | null {
  const text = value.trim();
  const first = text.indexOf(':');
  const second = first < 0 ? -1 : text.indexOf(':', first + 1);
  if (first <= 0 || second < 0) return null;
  const groupKind = text.slice(first + 1, second).split('/');
  const namespaceName = text.slice(second + 1).split('/');
  if (groupKind.length !== 2 || namespaceName.length !== 2) return null;
  const [group = '', kind = ''] = groupKind;
  const [namespace = '', name = ''] = namespaceName;
  if (!kind || !name) return null;
  return { ...splitAppName(text.slice(0, first)), group, kind, namespace, name };
}

/**
 * The tool that applies the object, with the metadata that proves it; undefined when
 * nothing proves an owner (a look-alike label is not proof).
 *
 * @example detectOwner({ group: 'apps', kind: 'Deployment', metadata: deployment.metadata })
 */
export function detectOwner(object: OwnedObject): ManagedBy | undefined {
  const managers = managedFieldsOf(object.metadata);
  return (
    fluxOwner(object.metadata.labels ?? {}) ??
    argoOwner(object, managers) ??
    helmOwner(object.metadata.annotations ?? {}) ??
    (hasGitOpsMarker(object.metadata, managers) ? undefined : kubectlOwner(object, managers))
  );
}

type ManagedFields = ReturnType<typeof managedFieldsOf>;

/** Flux: a Kustomization's or a HelmRelease's name and namespace labels. */
function fluxOwner(labels: Record<string, string>): ManagedBy | undefined {
  const fluxName = labels[FLUX_KUSTOMIZE_NAME];
  const fluxNamespace = labels[FLUX_KUSTOMIZE_NAMESPACE];
  if (fluxName && fluxNamespace) {
    return {
      tool: 'flux-kustomize',
      name: fluxName,
      namespace: fluxNamespace,
      evidence: S.ownerLabels.en({
        name: `${FLUX_KUSTOMIZE_NAME}=${fluxName}`,
        namespace: `${FLUX_KUSTOMIZE_NAMESPACE}=${fluxNamespace}`,
      }),
    };
  }
  const helmReleaseName = labels[FLUX_HELM_NAME];
  const helmReleaseNamespace = labels[FLUX_HELM_NAMESPACE];
  if (helmReleaseName && helmReleaseNamespace) {
    return {
      tool: 'flux-helm',
      name: helmReleaseName,
      namespace: helmReleaseNamespace,
      evidence: S.ownerLabels.en({
        name: `${FLUX_HELM_NAME}=${helmReleaseName}`,
        namespace: `${FLUX_HELM_NAMESPACE}=${helmReleaseNamespace}`,
      }),
    };
  }
  return undefined;
}

/**
 * Argo CD: a tracking-id annotation that names this very object, or the instance
 * label written by an Argo CD field manager.
 */
function argoOwner(object: OwnedObject, managers: ManagedFields): ManagedBy | undefined {
  const trackingId = object.metadata.annotations?.[ARGOCD_TRACKING_ID];
  if (trackingId) {
    const id = parseTrackingId(trackingId);
    if (
      id &&
      id.group === object.group &&
      id.kind === object.kind &&
      id.name === object.metadata.name &&
      id.namespace === (object.metadata.namespace ?? '')
    ) {
      return {
        tool: 'argocd',
        name: id.app,
        ...(id.appNamespace ? { namespace: id.appNamespace } : {}),
        evidence: S.argoTrackingId.en({ annotation: `${ARGOCD_TRACKING_ID}=${trackingId}` }),
      };
    }
  }
  const instance = object.metadata.labels?.[INSTANCE_LABEL];
  const argoManager = ARGOCD_MANAGERS.find((name) => managers.some((m) => m.manager === name));
  if (instance && argoManager) {
    const app = splitAppName(instance);
    return {
      tool: 'argocd',
      name: app.app,
      ...(app.appNamespace ? { namespace: app.appNamespace } : {}),
      evidence: S.argoInstanceLabel.en({ label: `${INSTANCE_LABEL}=${instance}`, manager: argoManager }),
    };
  }
  return undefined;
}

/** Helm: its release name and namespace annotations. */
function helmOwner(annotations: Record<string, string>): ManagedBy | undefined {
  const release = annotations[HELM_RELEASE_NAME];
  const releaseNamespace = annotations[HELM_RELEASE_NAMESPACE];
  if (!release || !releaseNamespace) return undefined;
  return {
    tool: 'helm',
    name: release,
    namespace: releaseNamespace,
    evidence: S.ownerAnnotations.en({
      name: `${HELM_RELEASE_NAME}=${release}`,
      namespace: `${HELM_RELEASE_NAMESPACE}=${releaseNamespace}`,
    }),
  };
}

/** kubectl apply, server-side (its Apply entry) or client-side (its annotation). */
function kubectlOwner(object: OwnedObject, managers: ManagedFields): ManagedBy | undefined {
  // kubectl apply --server-side: its own Apply entry is the manifest, no annotation.
  if (managers.some(isServerSideKubectlApply)) {
    return {
      tool: 'kubectl',
      name: KUBECTL_SERVER_SIDE_APPLY,
      evidence: S.serverSideApply.en({ manager: KUBECTL_SERVER_SIDE_APPLY }),
    };
  }
  if (object.metadata.annotations?.[LAST_APPLIED] === undefined) return undefined;
  // The manager that applied: the one holding the annotation (kubectl-client-side-apply,
  // or kubectl-create --save-config), not the first kubectl* writer (kubectl-edit, -rollout).
  const kubectl =
    managers.find((m) => isKubectlManager(m.manager) && holdsLastApplied(m)) ??
    managers.find((m) => m.manager === KUBECTL_CLIENT_SIDE_APPLY) ??
    managers.find((m) => isKubectlManager(m.manager));
  if (kubectl?.manager) {
    return {
      tool: 'kubectl',
      name: kubectl.manager,
      evidence: S.lastAppliedWithManager.en({ annotation: LAST_APPLIED, manager: kubectl.manager }),
    };
  }
  // No managedFields at all (an object older than server-side field tracking, or a
  // dump saved without --show-managed-fields): the annotation is the only writer
  // seen, and only kubectl's client-side apply writes it once GitOps markers are
  // ruled out. The instance label keeps it open (Argo CD label tracking with
  // client-side apply leaves the same annotation; its manager is what would tell).
  if (managers.length === 0 && object.metadata.labels?.[INSTANCE_LABEL] === undefined) {
    return {
      tool: 'kubectl',
      name: KUBECTL_CLIENT_SIDE_APPLY,
      evidence: S.lastAppliedNoManagers.en({ annotation: LAST_APPLIED }),
    };
  }
  return undefined;
}

/** The Kubernetes controller that writes a Deployment's status and revision annotation. */
const KUBE_CONTROLLER_MANAGER = 'kube-controller-manager';

/**
 * What the metadata says about writers when no owner is recognised (DESIGN.md §4,
 * "unknown is not empty"):
 * - `managedFields: 'absent'`: the object carries none (a dump saved without
 *   --show-managed-fields, or stripped), so no writer can be ruled out;
 * - `foreignManagers`: managers of the object itself (status subresource entries left
 *   out) that are neither kubectl*, kube-controller-manager nor rollout-doctor: a
 *   controller or pipeline we do not know (Terraform, an operator, another CD tool)
 *   may apply the object again;
 * - `markers`: GitOps-looking labels or annotations (argoproj.io/, fluxcd.io/,
 *   meta.helm.sh/) that proved no owner of this very object, and the label
 *   app.kubernetes.io/managed-by naming a tool other than kubectl (`Helm`: a release
 *   of Helm before 3.2 set no meta.helm.sh annotations; it proves no owner, and
 *   rules none out).
 */
interface UnrecognisedWriters {
  managedFields: 'absent' | 'present';
  foreignManagers: { manager: string; fields: Record<string, unknown>[] }[];
  markers: string[];
}

const inertManager = (manager: string): boolean =>
  isKubectlManager(manager) || manager === KUBE_CONTROLLER_MANAGER || manager === OUR_FIELD_MANAGER;

export function unrecognisedWriters(metadata: ObjectMeta): UnrecognisedWriters {
  const entries = managedFieldsOf(metadata);
  const foreign = new Map<string, Record<string, unknown>[]>();
  for (const e of entries) {
    if (e.subresource === 'status') continue;
    const manager = e.manager ?? '(unnamed)';
    if (inertManager(manager)) continue;
    foreign.set(manager, [...(foreign.get(manager) ?? []), ...(e.fieldsV1 ? [e.fieldsV1] : [])]);
  }
  return {
    managedFields: entries.length > 0 ? 'present' : 'absent',
    foreignManagers: [...foreign.entries()].map(([manager, fields]) => ({ manager, fields })),
    markers: [...gitOpsMarkerKeys(metadata), ...managedByMarker(metadata)],
  };
}

function managedByMarker(metadata: ObjectMeta): string[] {
  const tool = metadata.labels?.['app.kubernetes.io/managed-by'];
  return tool && !/^kubectl\b/i.test(tool) ? [`app.kubernetes.io/managed-by=${tool}`] : [];
}

/** Keys the Argo Rollouts controller writes on a Rollout and its ReplicaSets (utils/annotations). */
const ARGO_ROLLOUTS_KEY = /^(rollout\.argoproj\.io|argo-rollouts\.argoproj\.io)\//;

function gitOpsMarkerKeys(metadata: ObjectMeta): string[] {
  const keys = [...Object.keys(metadata.labels ?? {}), ...Object.keys(metadata.annotations ?? {})];
  return keys.filter(
    (k) =>
      // Argo Rollouts' own bookkeeping (rollout.argoproj.io/revision, …) says nothing of who applies the object.
      !ARGO_ROLLOUTS_KEY.test(k) &&
      (k.includes('argoproj.io/') || k.includes('fluxcd.io/') || k.startsWith('meta.helm.sh/')),
  );
}

/** Any label, annotation or manager of a GitOps tool: then kubectl is not the owner. */
function hasGitOpsMarker(metadata: ObjectMeta, managers: ManagedFieldsEntry[]): boolean {
  if (gitOpsMarkerKeys(metadata).length > 0) return true;
  return managers.some((m) =>
    [...ARGOCD_MANAGERS, FLUX_KUSTOMIZE_MANAGER, FLUX_HELM_MANAGER, HELM_MANAGER].includes(m.manager ?? ''),
  );
}

/**
 * The owner's desired manifest as far as the object shows it:
 * - server-side apply (Argo CD with ServerSideApply, Flux kustomize-controller, kubectl
 *   apply --server-side): the owner's `Apply` entry in managedFields lists exactly the
 *   fields of the applied manifest;
 * - Helm and helm-controller write with create/patch (`Update` entries): the union of
 *   their entries is what the chart set;
 * - client-side apply (Argo CD's default, kubectl apply): the last-applied-configuration
 *   annotation is the manifest itself.
 */
export type DesiredManifest =
  | { source: 'managed-fields'; manager: string; fields: Record<string, unknown>[] }
  | { source: 'last-applied'; object: unknown }
  | { source: 'unknown'; reason: string };

/**
 * Where each tool's manifest shows: its managedFields entries (Apply only, or any), and
 * last-applied. Several managers: the first that has entries is the manifest (Argo CD's
 * current manager before the older name), and a field only the other holds is left to
 * otherHolders (unknown: Git may have dropped it since).
 */
const MANIFEST_SOURCES: Record<
  ManagerTool,
  { managers: readonly string[]; applyOnly: boolean; lastApplied: boolean }
> = {
  argocd: { managers: ARGOCD_MANAGERS, applyOnly: true, lastApplied: true },
  'flux-kustomize': { managers: [FLUX_KUSTOMIZE_MANAGER], applyOnly: true, lastApplied: false },
  'flux-helm': { managers: [FLUX_HELM_MANAGER], applyOnly: false, lastApplied: false },
  helm: { managers: [HELM_MANAGER], applyOnly: false, lastApplied: false },
  kubectl: { managers: [KUBECTL_SERVER_SIDE_APPLY], applyOnly: true, lastApplied: true },
};

export function desiredManifest(metadata: ObjectMeta, owner: ManagedBy): DesiredManifest {
  const how = MANIFEST_SOURCES[owner.tool];
  const all = managedFieldsOf(metadata);
  for (const manager of how.managers) {
    const entries = all.filter(
      (m) =>
        m.manager === manager &&
        (!how.applyOnly || m.operation === 'Apply') &&
        !m.subresource &&
        m.fieldsV1 !== undefined,
    );
    if (entries.length > 0) {
      return { source: 'managed-fields', manager, fields: entries.map((e) => e.fieldsV1 ?? {}) };
    }
  }
  const text = metadata.annotations?.[LAST_APPLIED];
  if (how.lastApplied && text !== undefined) {
    try {
      return { source: 'last-applied', object: JSON.parse(text) as unknown };
    } catch {
      return { source: 'unknown', reason: `the ${LAST_APPLIED} annotation is not JSON` };
    }
  }
  const names = how.managers.join(' or ');
  const entry = how.applyOnly ? `an Apply entry of ${names}` : `an entry of ${names}`;
  return {
    source: 'unknown',
    reason: how.lastApplied
      ? `neither ${entry} in managedFields nor the ${LAST_APPLIED} annotation shows the manifest`
      : `no ${entry.slice(entry.indexOf(' ') + 1)} in managedFields shows the manifest`,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A keyed list entry's token (`[name=app]`, `[containerPort=8080]`): its merge key and value. */
function listEntry(token: string): { key: string; value: string } | undefined {
  const m = /^\[([A-Za-z]+)=(.*)\]$/.exec(token);
  return m?.[1] !== undefined && m[2] !== undefined ? { key: m[1], value: m[2] } : undefined;
}

/** A list value equal to a token's (numbers as written: containerPort 8080 and "8080"). */
const sameKey = (value: unknown, wanted: string): boolean =>
  (typeof value === 'string' || typeof value === 'number') && String(value) === wanted;

/**
 * The fieldsV1 element of a keyed list entry: `k:{"name":"app"}`, or where server-side
 * apply keys by several fields, the one whose merge key matches
 * (`k:{"containerPort":8080,"protocol":"TCP"}` for [containerPort=8080]).
 */
function keyedElement(keys: readonly string[], entry: { key: string; value: string }): string | undefined {
  return keys.find((k) => {
    if (!k.startsWith('k:')) return false;
    try {
      const parsed = JSON.parse(k.slice(2)) as unknown;
      return isRecord(parsed) && sameKey(parsed[entry.key], entry.value);
    } catch {
      return false;
    }
  });
}

/** Whether a fieldsV1 tree sets the field at `tokens` (itself, something under it, or an atomic whole above it). */
function fieldsV1Sets(tree: Record<string, unknown>, tokens: readonly string[]): boolean {
  let node: unknown = tree;
  for (const [depth, token] of tokens.entries()) {
    if (!isRecord(node)) return false;
    const keys = Object.keys(node).filter((k) => k !== '.');
    // A leaf ({} or only ".") above the path holds what is under it only when the field
    // is atomic by the schema (a selector, the required node affinity, tolerations); a
    // granular map or struct ({} for annotations, labels, nodeSelector) holds its
    // presence, not its keys.
    if (keys.length === 0) return isAtomicField(tokens.slice(0, depth));
    const entry = listEntry(token);
    const direct = entry === undefined ? node[`f:${token}`] : node[keyedElement(keys, entry) ?? ''];
    if (direct !== undefined) {
      node = direct;
      continue;
    }
    // A list element (k:{…}, v:…, i:N) stands for the list items the manifest sets.
    if (/^\d+$/.test(token) && keys.some((k) => /^[kvi]:/.test(k))) return true;
    return false;
  }
  return true;
}

/** Whether a plain manifest object sets the field at `tokens`. */
function objectSets(manifest: unknown, tokens: readonly string[]): boolean {
  let node: unknown = manifest;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      // A list entry by its index, or by its key where the list merges by key ([name=app]).
      const entry = listEntry(token);
      node =
        entry !== undefined
          ? node.find((e) => isRecord(e) && sameKey(e[entry.key], entry.value))
          : /^\d+$/.test(token)
            ? node[Number(token)]
            : undefined;
    } else if (isRecord(node)) {
      if (!Object.hasOwn(node, token)) return false;
      node = node[token];
    } else {
      // A scalar or null above the path: the manifest sets the whole field.
      return node !== null;
    }
    if (node === undefined) return false;
  }
  return node !== null;
}

/**
 * The managers other than the manifest's owner that hold the field at `tokens` now
 * (status subresource left out; the scale subresource counts: an HPA holds `replicas`
 * through it). A write that changes a field's value takes it from
 * whoever held it, the owner's Apply entry included (Kubernetes server-side apply:
 * "ownership moves from its current manager to the manager making the change"), so a
 * field missing from the owner's entries but held by another writer may still be in
 * the owner's manifest: taken by a `kubectl edit`, or by an earlier write of ours and
 * its Undo, and not applied again since.
 */
export function otherHolders(
  metadata: ObjectMeta,
  manifest: Extract<DesiredManifest, { source: 'managed-fields' }>,
  tokens: readonly string[],
): string[] {
  const holders = managedFieldsOf(metadata).filter(
    (e) =>
      e.manager !== manifest.manager &&
      e.subresource !== 'status' &&
      e.fieldsV1 !== undefined &&
      fieldsV1Sets(e.fieldsV1, tokens),
  );
  return [...new Set(holders.map((e) => e.manager ?? '(unnamed)'))];
}

/** true / false when the manifest shows it, undefined when the manifest is unknown. */
export function manifestSets(manifest: DesiredManifest, tokens: readonly string[]): boolean | undefined {
  if (manifest.source === 'unknown') return undefined;
  if (manifest.source === 'last-applied') return objectSets(manifest.object, tokens);
  return manifest.fields.some((tree) => fieldsV1Sets(tree, tokens));
}
