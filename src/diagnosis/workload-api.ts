/**
 * How the API and people name one workload kind, what the worker is granted on it, and
 * where a snapshot keeps its objects: the part of a kind that the layers below the
 * diagnosis read (the parsers, the queue schema, the API paths, RBAC, discovery). Each
 * kind declares one in its folder (workloads/deployment/api.ts) and the registry
 * (workloads/kinds.ts) lists them; everything here is derived from such a list, so a
 * kind that is listed is parsed, carried, read and granted with no other edit
 * (docs/architecture.md, "Adding a workload kind"). A leaf: types and pure functions.
 */

/** The RBAC verbs the worker uses on a workload kind's resource. */
type WorkloadVerb = 'get' | 'list' | 'watch' | 'patch';

/** A kind's identity, without its object types (see `WorkloadApi`). */
export interface WorkloadApiFields {
  /** The API's kind: "Deployment". */
  readonly kind: string;
  /** API group and version it is read at: "apps", "v1". */
  readonly group: string;
  readonly version: string;
  /** The plural resource, as RBAC, the API path and kubectl name it: "deployments". */
  readonly resource: string;
  /**
   * The TYPE spellings kubectl accepts in TYPE/NAME, lower case, the singular first
   * (the alert map's word and the label kube-state-metrics puts the name in).
   */
  readonly types: readonly [string, ...string[]];
  /** What people call one ("Argo Rollout"): the kind's word in sentences. */
  readonly title: string;
  /** What the worker does on the resource (read, follow its rollout, patch approved plans). */
  readonly verbs: readonly WorkloadVerb[];
  /** Subresources it writes, with their verbs: `{ status: ['patch'] }` (an Argo Rollout's abort). */
  readonly subresources?: Readonly<Record<string, readonly WorkloadVerb[]>>;
  /** The objects that hold its revisions (group apps), which the worker lists. */
  readonly revisions:
    | { readonly kind: 'ReplicaSet'; readonly resource: 'replicasets' }
    | { readonly kind: 'ControllerRevision'; readonly resource: 'controllerrevisions' };
  /**
   * Served only where its CRD is installed: the product that installs it ("Argo
   * Rollouts"). Discovery of its group-version then says whether the cluster serves it,
   * and a 404 is not "this object does not exist". Absent: a built-in kind.
   */
  readonly crd?: { readonly installedBy: string };
  /** The snapshot's fields for its object and its revision objects: "deployment", "replicaSets". */
  readonly snapshot: { readonly object: string; readonly revisions: string };
}

/** A kind's identity with the types of its object (`O`) and revision objects (`R`), carried as types only. */
type WorkloadApi<O = unknown, R = unknown> = WorkloadApiFields & {
  readonly '~types'?: { object: O; revision: R };
};

/**
 * Declares a kind's identity typed for its objects.
 *
 * @example export const deploymentApi = workloadApi<Deployment, ReplicaSet>()({ kind: 'Deployment', ... });
 */
export function workloadApi<O, R>(): <const A extends WorkloadApiFields>(api: A) => A & WorkloadApi<O, R> {
  return (api) => api;
}

/** A registry: the kinds' identities, in the order people read them. */
export type WorkloadApiList = readonly [WorkloadApi, ...WorkloadApi[]];

/** The kind names of a registry, as a union. */
export type KindOf<L extends WorkloadApiList> = L[number]['kind'];

/** A kind's object type. */
export type ObjectOf<A> = A extends { readonly '~types'?: { object: infer O } } ? O : never;
/** A kind's revision object type. */
export type RevisionOf<A> = A extends { readonly '~types'?: { revision: infer R } } ? R : never;

/** A kind's fields in a snapshot: `{ deployment: Deployment } & { replicaSets: ReplicaSet[] }`. */
export type ObjectsOf<A> = A extends { readonly snapshot: { object: infer F; revisions: infer RF } }
  ? { [P in F & string]: ObjectOf<A> } & { [P in RF & string]: RevisionOf<A>[] }
  : never;

/** The kind fields of a snapshot of any listed kind (a union, one member per kind). */
export type WorkloadObjectsOf<L extends WorkloadApiList> = ObjectsOf<L[number]>;

/** The identities of a registry by kind name. */
type ApiTable<L extends WorkloadApiList> = { readonly [A in L[number] as A['kind']]: A };

/** The kind names of a registry, in its order (a non-empty tuple: a zod enum takes it). */
export function kindsOf<L extends WorkloadApiList>(apis: L): readonly [KindOf<L>, ...KindOf<L>[]] {
  const [first, ...rest] = apis;
  return [first.kind, ...rest.map((api) => api.kind)];
}

/** The identities of a registry by kind name. */
export function apiTable<L extends WorkloadApiList>(apis: L): ApiTable<L> {
  return Object.freeze(Object.fromEntries(apis.map((api) => [api.kind, api]))) as ApiTable<L>;
}

/**
 * What a kind module takes from its identity rather than stating it again: its kind
 * name, its revision objects and its snapshot fields (`objects`: the object and its
 * revision objects under the identity's `snapshot` names).
 *
 * @example export const daemonSetKind = { ...fromIdentity(daemonSetApi), podOwner: 'itself', ... };
 */
export function fromIdentity<A extends WorkloadApiFields>(
  api: A,
): {
  kind: A['kind'];
  revisionObjects: A['revisions'];
  objects(object: ObjectOf<A>, revisions: RevisionOf<A>[]): ObjectsOf<A>;
} {
  return {
    kind: api.kind,
    revisionObjects: api.revisions,
    // The identity's field names, typed by ObjectsOf (computed keys lose their names).
    objects: (object, revisions) =>
      ({ [api.snapshot.object]: object, [api.snapshot.revisions]: revisions }) as ObjectsOf<A>,
  };
}

/** The snapshot holds this kind's objects (its object field is present). */
export function hasObjectsOf<A extends WorkloadApiFields, T extends object>(
  api: A,
  snapshot: T,
): snapshot is T & ObjectsOf<A> {
  return api.snapshot.object in snapshot;
}

/** Words in a list: "a, b and c". */
function phrase(words: readonly string[], last: 'and' | 'or'): string {
  return words.length <= 1
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1) ?? ''}`;
}

/**
 * How a registry's kinds are named and parsed: the kind a TYPE of TYPE/NAME names, as
 * kubectl spells it (any case), TYPE/NAME or NAME split, the kinds in a phrase. Both
 * command parsers, the queue schema and the alert map use the product's (workload-ref.ts).
 */
export function workloadVocabulary<L extends WorkloadApiList>(apis: L, defaultKind: KindOf<L>) {
  type K = KindOf<L>;
  const kinds = kindsOf(apis);
  const isKind = (kind: string | undefined): kind is K => (kinds as readonly string[]).includes(kind ?? '');
  const kindOfType = (type: string): K | undefined => {
    const lower = type.toLowerCase();
    return apis.find((api) => (api.types as readonly string[]).includes(lower))?.kind;
  };
  return {
    kinds,
    isKind,
    kindOfType,
    /** TYPE/NAME or NAME as kubectl reads it (a bare NAME: the default kind); the name is not checked. */
    splitTypeName(text: string): { kind: K; name: string } | { unknownType: string } {
      const slash = text.indexOf('/');
      if (slash < 0) return { kind: defaultKind, name: text };
      const type = text.slice(0, slash);
      const kind = kindOfType(type);
      return kind ? { kind, name: text.slice(slash + 1) } : { unknownType: type };
    },
    /** "Deployments, DaemonSets, StatefulSets and Rollouts"; `('', 'or')`: "Deployment, … or Rollout". */
    kindsPhrase(plural: 's' | '', last: 'and' | 'or'): string {
      return phrase(
        kinds.map((k) => `${k}${plural}`),
        last,
      );
    },
    /** As people call them, for help and messages: "Deployments, DaemonSets, StatefulSets and Argo Rollouts". */
    titlesPhrase(plural: 's' | '', last: 'and' | 'or'): string {
      return phrase(
        apis.map((api) => `${api.title}${plural}`),
        last,
      );
    },
  };
}
