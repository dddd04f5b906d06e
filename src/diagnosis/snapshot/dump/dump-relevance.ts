/**
 * Which objects of a dump a diagnosis of one workload can use, decided as each
 * object is read so that other namespaces' ReplicaSets, events and config never pile
 * up in memory: cluster-scoped objects (nodes, device classes and slices), everything
 * in the target namespace, and the few namespaced kinds whose objects elsewhere
 * matter. The GitOps owner's settings (an Argo CD Application, a Flux Kustomization
 * or HelmRelease) live in their own namespaces. Pods of every namespace hold node resources (neighbours), and a dump that
 * holds them is what tells the assembler that other workloads were read; resource
 * claims of any namespace can hold devices; workloads elsewhere name the namespace
 * a mistyped command meant. An object without a namespace is kept: a hand-written
 * dump may omit it.
 */
import type { KubeObject } from '../../k8s.js';
import { newestTimeInText, readNodeName, type ObjectHead } from './object-head.js';
import type { DeferredPiece } from './dump.js';
import { isWorkloadKind, WORKLOAD_KINDS, type WorkloadRef } from '../../workload-ref.js';

const EVERY_NAMESPACE = new Set<string>([
  'Pod',
  'ResourceClaim',
  // Workloads of every kind elsewhere: the namespace a mistyped command meant.
  ...WORKLOAD_KINDS,
  'Application',
  'Kustomization',
  'HelmRelease',
]);

/** The keep-filter for loadObjects when diagnosing `ref`. */
export function relevantTo(ref: Pick<WorkloadRef, 'namespace'>): (object: KubeObject) => boolean {
  return (object) => {
    const namespace = object.metadata?.namespace;
    return namespace === undefined || namespace === ref.namespace || EVERY_NAMESPACE.has(object.kind ?? '');
  };
}

/**
 * The objects `relevantTo(ref)` drops, known from the head alone (a kind and a
 * namespace read off the text), are never parsed (dump.ts `triage`). A head without a
 * namespace (cluster-scoped, or not read) is never skipped.
 */
function dropped(ref: Pick<WorkloadRef, 'namespace'>, head: ObjectHead): boolean {
  return (
    head.kind !== undefined &&
    head.namespace !== undefined &&
    head.namespace !== ref.namespace &&
    !EVERY_NAMESPACE.has(head.kind) &&
    !head.kind.endsWith('List')
  );
}

function elsewhere(ref: Pick<WorkloadRef, 'namespace'>, head: ObjectHead): boolean {
  return head.namespace !== undefined && head.namespace !== ref.namespace;
}

/** What a diagnosis' dump reading left unparsed: other namespaces' pods, and the newest time they record. */
export interface Unparsed {
  pods: number;
  newest?: string;
}

/**
 * The reading of a dump for a diagnosis of `ref` (so a big YAML dump costs only what it reads):
 * objects `relevantTo` drops are skipped unparsed; other namespaces' pods are set aside
 * and parsed only when bound to a node the diagnosis looks at (`nodesOf`, from what was
 * read without them), or when their text names a resource claim or a deletion (the
 * assembler reads those whatever the node). The others are counted, with the newest
 * time they record, so the snapshot still knows other namespaces' pods were dumped and
 * when the dump was taken.
 */
export function dumpReading(
  ref: Pick<WorkloadRef, 'namespace'>,
  nodesOf: (kept: readonly KubeObject[]) => ReadonlySet<string> | undefined,
): {
  triage: (head: ObjectHead) => 'parse' | 'skip' | 'defer';
  resolve: (kept: readonly KubeObject[]) => ((piece: DeferredPiece) => boolean) | undefined;
  unparsed: (piece: DeferredPiece) => void;
  summary: Unparsed;
} {
  const summary: Unparsed = { pods: 0 };
  return {
    summary,
    triage: (head) =>
      dropped(ref, head)
        ? 'skip'
        : elsewhere(ref, head) && (head.kind === 'Pod' || isWorkloadKind(head.kind))
          ? 'defer'
          : 'parse',
    // The target found (nodesOf answers): workloads elsewhere, kept only to name the
    // namespace a mistyped command meant, are not needed; pods there only on our nodes.
    resolve: (kept) => {
      const nodes = nodesOf(kept);
      if (nodes === undefined) return undefined;
      return (piece) => {
        if (piece.head.kind !== 'Pod') return false;
        if (/esourceClaim|deletionTimestamp/.test(piece.text)) return true;
        const node = readNodeName(piece.text, piece.indent);
        return node !== undefined && nodes.has(node);
      };
    },
    unparsed: (piece) => {
      if (piece.head.kind !== 'Pod') return;
      summary.pods += 1;
      const newest = newestTimeInText(piece.text);
      if (
        newest !== undefined &&
        (summary.newest === undefined || Date.parse(newest) > Date.parse(summary.newest))
      )
        summary.newest = newest;
    },
  };
}
