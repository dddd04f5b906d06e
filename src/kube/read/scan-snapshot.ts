/**
 * A snapshot for one workload carved out of per-namespace lists (scan), instead of
 * the collector's targeted reads. The objects are chosen by selectWorkload, as for
 * the collector and dumps. Pure.
 */
import type { KubeEvent, Node, Pod } from '../../diagnosis/k8s.js';
import type { PersistentVolumeClaim } from '../../diagnosis/k8s-storage.js';
import { selectWorkload } from '../../diagnosis/workloads/select-workload.js';
import type {
  AccessProblem,
  Coverage,
  CoverageGap,
  DraCoverage,
  DraObjects,
  ReadState,
  RevisionObject,
  WorkloadObject,
  WorkloadSnapshot,
} from '../../diagnosis/snapshot/types.js';
import type { WorkloadKind } from '../../diagnosis/workload-ref.js';

export interface NamespaceObjects {
  /** Objects holding revisions (ReplicaSets) of the namespace. */
  revisions: RevisionObject[];
  pods: Pod[];
  events: KubeEvent[];
  pvcs: PersistentVolumeClaim[];
  /** How completely each list was read, and the gaps. */
  states: { replicaSets: ReadState; pods: ReadState; events: ReadState };
  gaps: CoverageGap[];
}

export interface NodeObjects {
  items: Node[];
  state: ReadState;
  gaps: CoverageGap[];
}

export function buildScanSnapshot(
  kind: WorkloadKind,
  object: WorkloadObject,
  objects: NamespaceObjects,
  nodes: NodeObjects,
  neighbours: { pods: Pod[]; readOn: string[] | 'all'; gaps: CoverageGap[] },
  accessProblems: AccessProblem[],
  dra?: { objects?: DraObjects; coverage?: DraCoverage },
): WorkloadSnapshot {
  const coverage: Coverage = {
    ...objects.states,
    nodes: nodes.state,
    podsReadOn: neighbours.readOn,
    gaps: [...objects.gaps, ...nodes.gaps, ...neighbours.gaps],
    ...(dra?.coverage ? { dra: dra.coverage } : {}),
  };
  return selectWorkload(
    kind,
    object,
    {
      ...objects,
      nodes: nodes.items,
      neighbours: neighbours.pods,
      ...(dra?.objects ? { dra: dra.objects } : {}),
    },
    { capturedAt: new Date().toISOString(), coverage, accessProblems },
  );
}
