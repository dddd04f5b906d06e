/**
 * Which object holds the settings of a Deployment's GitOps owner, and where it lives
 * (pure; the collector reads it, the dump assembler looks it up):
 * - Argo CD: the Application (argoproj.io/v1alpha1 applications) named by the tracking
 *   id or instance label; `<ns>_<app>` names its namespace (apps in any namespace),
 *   otherwise it lives in Argo CD's own namespace (`argocd` unless configured);
 * - Flux kustomize-controller: the Kustomization (kustomize.toolkit.fluxcd.io/v1) the
 *   labels name, name and namespace;
 * - Flux helm-controller: the HelmRelease (helm.toolkit.fluxcd.io/v2), likewise.
 * Helm and kubectl keep no settings object that decides a revert.
 */
import type { ManagedBy } from './ownership.js';
import type { CoverageGap, OwnerSettingsRead } from './snapshot/types.js';

/** Argo CD's namespace when the tracking id names none (the install default). */
const DEFAULT_ARGOCD_NAMESPACE = 'argocd';

export interface OwnerTarget {
  kind: OwnerSettingsRead['kind'];
  group: string;
  version: string;
  /** Plural resource name: "applications". */
  plural: string;
  namespace: string;
  name: string;
}

export function ownerTarget(
  owner: ManagedBy | undefined,
  argocdNamespace: string = DEFAULT_ARGOCD_NAMESPACE,
): OwnerTarget | undefined {
  if (!owner) return undefined;
  switch (owner.tool) {
    case 'argocd':
      return {
        kind: 'Application',
        group: 'argoproj.io',
        version: 'v1alpha1',
        plural: 'applications',
        namespace: owner.namespace ?? argocdNamespace,
        name: owner.name,
      };
    case 'flux-kustomize':
      return owner.namespace
        ? {
            kind: 'Kustomization',
            group: 'kustomize.toolkit.fluxcd.io',
            version: 'v1',
            plural: 'kustomizations',
            namespace: owner.namespace,
            name: owner.name,
          }
        : undefined;
    case 'flux-helm':
      return owner.namespace
        ? {
            kind: 'HelmRelease',
            group: 'helm.toolkit.fluxcd.io',
            version: 'v2',
            plural: 'helmreleases',
            namespace: owner.namespace,
            name: owner.name,
          }
        : undefined;
    case 'helm':
    case 'kubectl':
      return undefined;
  }
}

/** "applications.argoproj.io", as RBAC and kubectl name it. */
function ownerResource(target: OwnerTarget): string {
  return `${target.plural}.${target.group}`;
}

function ownerSettle(target: OwnerTarget): string {
  return `kubectl get ${ownerResource(target)} ${target.name} -n ${target.namespace} -o yaml`;
}

/** The record of one read of the target (the object when read). */
export function ownerRead(
  target: OwnerTarget,
  state: OwnerSettingsRead['state'],
  object?: unknown,
): OwnerSettingsRead {
  return {
    kind: target.kind,
    apiVersion: `${target.group}/${target.version}`,
    resource: ownerResource(target),
    namespace: target.namespace,
    name: target.name,
    state,
    ...(state === 'read' ? { object } : {}),
    settle: ownerSettle(target),
  };
}

/** A coverage gap for a settings object that was not read; undefined when it was. */
export function ownerGap(read: OwnerSettingsRead): CoverageGap | undefined {
  if (read.state === 'read') return undefined;
  const what = `${read.kind} ${read.namespace}/${read.name} (${read.resource})`;
  const settle =
    read.state === 'forbidden'
      ? `grant get on ${read.resource} in namespace ${read.namespace}, or ${read.settle}`
      : read.settle;
  return { about: 'owner', what, reason: read.state, settle };
}

/** The source a Flux owner takes its manifests from, as its spec names it. */
interface FluxSourceRef {
  /** "GitRepository", "OCIRepository", "HelmRepository", … as written ("undefined" where absent). */
  kind: string;
  name: string | undefined;
  /** Its own namespace, else the owner's. */
  namespace: string;
}

/**
 * A Flux Kustomization's spec.sourceRef, or a HelmRelease's spec.chart.spec.sourceRef;
 * undefined where the spec names none. Read by the collector (the GitRepository it
 * fetches) and by src/propose/owner-source.ts (where a pull request goes).
 */
export function fluxSourceRef(
  owner: unknown,
  kind: 'Kustomization' | 'HelmRelease',
  ownerNamespace: string,
): FluxSourceRef | undefined {
  const spec = field(owner, 'spec');
  const ref =
    kind === 'HelmRelease'
      ? field(field(field(spec, 'chart'), 'spec'), 'sourceRef')
      : field(spec, 'sourceRef');
  if (ref === undefined) return undefined;
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  return {
    kind: String(ref['kind']),
    name: text(ref['name']),
    namespace: text(ref['namespace']) ?? ownerNamespace,
  };
}

function field(value: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const inner = (value as Record<string, unknown>)[key];
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner)
    ? (inner as Record<string, unknown>)
    : undefined;
}
