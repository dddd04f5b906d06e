/**
 * Kinds a scenario brings that the simulator's resource table (resources.ts) lacks: a
 * real `kubectl get -o yaml` dump holds HorizontalPodAutoscalers, PodDisruptionBudgets,
 * Endpoints, custom resources... They are served as stored objects (get, list, watch,
 * create, patch, delete; no controller), each under the group/version/resource derived
 * the way the API machinery would:
 * - from the dump's CustomResourceDefinition when it has one (spec.group, spec.names,
 *   spec.scope, the served versions, subresources and additionalPrinterColumns);
 * - otherwise from the object itself: group and version from apiVersion, the plural as
 *   k8s.io/apimachinery guesses it (meta.UnsafeGuessKindToResource: lower-case kind,
 *   "…s" → "…ses", "…y" → "…ies", "endpoints" unchanged, else "+s"), namespaced when
 *   the object has a namespace.
 * A kind outside the built-in API groups is a custom resource: it gets a
 * CustomResourceDefinition if the dump had none (a cluster holding such objects serves
 * them through one), is served while that CRD is stored, and takes no strategic merge
 * patch. Kinds of the resource table that are served through a CRD (an Argo Rollout, an
 * Argo CD Application) get their CRD the same way when the scenario holds their objects.
 */
import { ScenarioError } from './scenario-error.js';
import {
  apiVersionOf,
  crdName,
  RESOURCES,
  resourceForKind,
  type PrinterColumn,
  type ResourceType,
} from './resources.js';
import type { Store } from './store.js';

/** The type a stored kind is served as: the resource table's, else one a scenario brought. */
export function typeForKind(store: Store, kind: string): ResourceType | undefined {
  return resourceForKind(kind) ?? store.storedTypes.find((t) => t.kind === kind);
}

/** meta.UnsafeGuessKindToResource (k8s.io/apimachinery/pkg/api/meta/restmapper.go): plural and singular. */
export function guessResource(kind: string): { plural: string; singular: string } {
  const singular = kind.toLowerCase();
  if (singular.endsWith('endpoints')) return { plural: singular, singular };
  if (singular.endsWith('s')) return { plural: `${singular}es`, singular };
  if (singular.endsWith('y')) return { plural: `${singular.slice(0, -1)}ies`, singular };
  return { plural: `${singular}s`, singular };
}

/** Groups the API server itself serves (no CRD): `""`, `apps`, `batch`, `*.k8s.io`, ... */
export function isBuiltInGroup(group: string): boolean {
  return (
    group === '' ||
    group.endsWith('.k8s.io') ||
    ['apps', 'batch', 'autoscaling', 'policy', 'extensions'].includes(group)
  );
}

interface Shape {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; namespace?: unknown };
  spec?: unknown;
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  subresources?: { status?: unknown; scale?: unknown };
  additionalPrinterColumns?: PrinterColumn[];
}

interface CrdSpec {
  group?: string;
  scope?: string;
  names?: { plural?: string; singular?: string; kind?: string; shortNames?: string[]; categories?: string[] };
  versions?: CrdVersion[];
}

/** The served type a CustomResourceDefinition declares for `version` (its storage version when unset). */
function typeFromCrd(spec: CrdSpec, version?: string): ResourceType | undefined {
  const names = spec.names ?? {};
  if (!spec.group || !names.plural || !names.kind) return undefined;
  const versions = (spec.versions ?? []).filter((v) => v.served !== false);
  const chosen = versions.find((v) => v.name === version) ?? versions.find((v) => v.storage) ?? versions[0];
  if (!chosen?.name) return undefined;
  const subresources = [
    ...(chosen.subresources?.status !== undefined ? ['status'] : []),
    ...(chosen.subresources?.scale !== undefined ? ['scale'] : []),
  ];
  return {
    plural: names.plural,
    singular: names.singular ?? names.kind.toLowerCase(),
    kind: names.kind,
    group: spec.group,
    version: chosen.name,
    namespaced: spec.scope !== 'Cluster',
    ...(names.shortNames?.length ? { shortNames: names.shortNames } : {}),
    ...(names.categories?.length ? { categories: names.categories } : {}),
    ...(subresources.length > 0 ? { subresources } : {}),
    ...(chosen.additionalPrinterColumns?.length ? { printerColumns: chosen.additionalPrinterColumns } : {}),
    crd: true,
    custom: true,
  };
}

/** A minimal CustomResourceDefinition serving `rt`, as a cluster holding its objects has one. */
export function crdFor(rt: ResourceType): object {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName(rt) },
    spec: {
      group: rt.group,
      names: {
        kind: rt.kind,
        listKind: `${rt.kind}List`,
        plural: rt.plural,
        singular: rt.singular,
        ...(rt.shortNames ? { shortNames: rt.shortNames } : {}),
        ...(rt.categories ? { categories: rt.categories } : {}),
      },
      scope: rt.namespaced ? 'Namespaced' : 'Cluster',
      versions: [
        {
          name: rt.version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          ...(rt.subresources
            ? {
                subresources: {
                  ...(rt.subresources.includes('status') ? { status: {} } : {}),
                  ...(rt.subresources.includes('scale')
                    ? {
                        scale: {
                          specReplicasPath: '.spec.replicas',
                          statusReplicasPath: '.status.replicas',
                        },
                      }
                    : {}),
                },
              }
            : {}),
          ...(rt.printerColumns ? { additionalPrinterColumns: rt.printerColumns } : {}),
        },
      ],
    },
    status: { acceptedNames: { kind: rt.kind, plural: rt.plural }, storedVersions: [rt.version] },
  };
}

function label(o: Shape): string {
  const name = typeof o.metadata?.name === 'string' ? o.metadata.name : '';
  return `${String(o.kind)} "${name}"`;
}

/**
 * Registers a stored type for every kind of `objects` the resource table lacks, and
 * returns the CustomResourceDefinitions the scenario needs but does not declare (for
 * its custom kinds and for the table's CRD-backed kinds it holds). Refuses what cannot
 * be stored: an unknown kind without apiVersion, or one whose kind name the table
 * serves under another group.
 */
export function registerStoredKinds(store: Store, objects: readonly unknown[]): object[] {
  const crds = new Map<string, CrdSpec>();
  for (const o of objects as Shape[]) {
    if (o.kind === 'CustomResourceDefinition' && typeof o.metadata?.name === 'string')
      crds.set(o.metadata.name, (o.spec ?? {}) as CrdSpec);
  }
  const missingCrds = new Map<string, object>();
  for (const o of objects as Shape[]) {
    if (typeof o.kind !== 'string') continue;
    const known = resourceForKind(o.kind);
    const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : undefined;
    if (known) {
      if (apiVersion && splitApiVersion(apiVersion).group !== known.group) {
        throw new ScenarioError(
          `scenario: ${label(o)} is ${apiVersion}, but the simulator serves kind ${o.kind} as ${apiVersionOf(known)}: both cannot be stored`,
        );
      }
      if (known.crd && !crds.has(crdName(known))) missingCrds.set(crdName(known), crdFor(known));
      continue;
    }
    if (!apiVersion) {
      throw new ScenarioError(
        `scenario: ${label(o)} has no apiVersion, so its API group is unknown: it cannot be stored`,
      );
    }
    const { group, version } = splitApiVersion(apiVersion);
    const existing = store.storedTypes.find((t) => t.kind === o.kind);
    if (existing) {
      if (existing.group !== group) {
        throw new ScenarioError(
          `scenario: ${label(o)} is ${apiVersion}, but kind ${o.kind} is already stored as ${apiVersionOf(existing)}: both cannot be stored`,
        );
      }
      if (typeof o.metadata?.namespace === 'string' && !existing.namespaced && !crdSpecFor(crds, existing)) {
        existing.namespaced = true;
      }
      continue;
    }
    const guessed = guessResource(o.kind);
    const fromCrd = [...crds.values()]
      .filter((spec) => spec.group === group && spec.names?.kind === o.kind)
      .map((spec) => typeFromCrd(spec, version))
      .find((t) => t !== undefined);
    const rt: ResourceType = fromCrd ?? {
      ...guessed,
      kind: o.kind,
      group,
      version,
      namespaced: typeof o.metadata?.namespace === 'string',
      ...(isBuiltInGroup(group) ? {} : { crd: true as const, custom: true as const }),
    };
    if (RESOURCES.some((t) => t.group === rt.group && t.plural === rt.plural)) {
      throw new ScenarioError(
        `scenario: ${label(o)} would be served as ${rt.plural}.${rt.group}, which the simulator already serves as another kind`,
      );
    }
    store.storedTypes.push(rt);
    if (rt.crd && !crds.has(crdName(rt))) missingCrds.set(crdName(rt), crdFor(rt));
  }
  return [...missingCrds.values()];
}

function crdSpecFor(crds: ReadonlyMap<string, CrdSpec>, rt: ResourceType): CrdSpec | undefined {
  return crds.get(crdName(rt));
}
