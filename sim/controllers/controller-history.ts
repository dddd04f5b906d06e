/**
 * ControllerRevisions as the StatefulSet and DaemonSet controllers keep them
 * (k8s.io/kubernetes pkg/controller/history/controller_history.go): the data is the
 * strategic merge patch that restores the pod template, `{"spec":{"template":{…,
 * "$patch":"replace"}}}`, written by json.Marshal of a map (keys sorted at every level:
 * getPatch in statefulset/stateful_set_utils.go and daemon/update.go, the same bytes
 * `kubectl rollout undo` sends back); revisions are ordered by number, then creation
 * time, then name (SortControllerRevisions).
 */
import type { PodTemplateSpec } from '../../src/diagnosis/k8s.js';
import { resourceForKind } from '../resources.js';
import type { SimObject, Store } from '../store.js';
import { createObject } from '../writes.js';
import { canonicalJson } from './rollout-math.js';
import type { ControllerRevision } from './workload-types.js';

const CR_RT = resourceForKind('ControllerRevision');
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** rand.SafeEncodeString(fmt.Sprint(hash)): each decimal digit mapped into a vowel-free alphabet. */
export function safeEncode(hash: number): string {
  return [...String(hash >>> 0)]
    .map((ch) => SAFE_ALPHABET[ch.charCodeAt(0) % SAFE_ALPHABET.length] ?? 'b')
    .join('');
}

/**
 * HashControllerRevision: FNV-1 32-bit (hash/fnv New32, multiply then xor, not the 1a
 * variant) over Data.Raw, then the collision count in decimal when one is given.
 */
export function hashRevisionData(raw: string, collisionCount?: number): string {
  let hash = 0x811c9dc5;
  const text = raw + (collisionCount === undefined ? '' : String(collisionCount));
  for (const byte of Buffer.from(text, 'utf8')) {
    hash = Math.imul(hash, 0x01000193) >>> 0;
    hash = (hash ^ byte) >>> 0;
  }
  return safeEncode(hash);
}

/** getPatch: the revision data for a pod template, as an object with sorted keys and as its raw JSON. */
export function templatePatch(template: PodTemplateSpec): { data: object; raw: string } {
  const raw = canonicalJson({ spec: { template: { ...structuredClone(template), $patch: 'replace' } } });
  return { data: JSON.parse(raw) as object, raw };
}

/** The raw bytes a revision's data compares by (EqualRevision: bytes.Equal of Data.Raw). */
export function revisionRaw(revision: ControllerRevision): string {
  return canonicalJson(revision.data);
}

/** The pod template a revision restores (ApplyRevision / applyDaemonSetHistory). */
export function templateOf(revision: ControllerRevision): PodTemplateSpec | undefined {
  const spec = (revision.data as { spec?: { template?: Record<string, unknown> } } | undefined)?.spec;
  if (!spec?.template) return undefined;
  const { $patch: _directive, ...template } = spec.template;
  return template as unknown as PodTemplateSpec;
}

/** SortControllerRevisions: by revision, then creation time, then name. */
export function sortRevisions(revisions: ControllerRevision[]): ControllerRevision[] {
  return revisions.sort(
    (a, b) =>
      a.revision - b.revision ||
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
      a.metadata.name.localeCompare(b.metadata.name),
  );
}

/** The ControllerRevisions whose controller is `owner`, sorted. */
export function controlledRevisions(store: Store, owner: SimObject): ControllerRevision[] {
  const uid = owner.metadata.uid ?? '';
  const owned = store
    .ownedBy(uid)
    .filter(
      (o) =>
        o.kind === 'ControllerRevision' &&
        o.metadata.ownerReferences?.some((r) => r.controller && r.uid === uid),
    ) as unknown as ControllerRevision[];
  return sortRevisions(owned);
}

/** nextRevision: one past the highest revision number (1 with none). */
export function nextRevision(revisions: readonly ControllerRevision[]): number {
  return Math.max(0, ...revisions.map((r) => r.revision)) + 1;
}

export interface NewRevision {
  owner: SimObject;
  name: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  data: object;
  revision: number;
}

/** Creates a ControllerRevision controlled by its owner (NewControllerRevision + Create). */
export function createRevision(store: Store, input: NewRevision): ControllerRevision {
  if (!CR_RT) throw new Error('ControllerRevision resource missing');
  const { owner } = input;
  return createObject(
    store,
    CR_RT,
    {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: input.name,
        namespace: owner.metadata.namespace,
        labels: input.labels,
        ...(Object.keys(input.annotations).length > 0 ? { annotations: input.annotations } : {}),
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: owner.kind,
            name: owner.metadata.name,
            uid: owner.metadata.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      data: input.data,
      revision: input.revision,
    },
    owner.metadata.namespace,
  ) as unknown as ControllerRevision;
}

/** UpdateControllerRevision: gives an existing revision a new number (a rollback to it). */
export function renumberRevision(
  store: Store,
  revision: ControllerRevision,
  next: number,
): ControllerRevision {
  const stored = store.get('ControllerRevision', revision.metadata.namespace, revision.metadata.name);
  if (!stored) return revision;
  return store.put({
    ...structuredClone(stored),
    revision: next,
  } as SimObject) as unknown as ControllerRevision;
}
