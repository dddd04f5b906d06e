/**
 * A snapshot for one Deployment carved out of per-namespace lists (scan), instead of
 * the collector's targeted reads. The objects are chosen by selectWorkload, as for
 * the collector and dumps. Pure.
 */
import type {
  Deployment,
  KubeEvent,
  Node,
  PersistentVolumeClaim,
  Pod,
  ReplicaSet,
} from '../../diagnosis/k8s.js';
import { selectWorkload } from '../../diagnosis/workloads/select-workload.js';
import type {
  AccessProblem,
  Coverage,
  CoverageGap,
  DraCoverage,
  DraObjects,
  ReadState,
  WorkloadSnapshot,
} from '../../diagnosis/snapshot.js';

export interface NamespaceObjects {
  replicaSets: ReplicaSet[];
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
  deployment: Deployment,
  objects: NamespaceObjects,
  nodes: NodeObjects,
  neighbours: { pods: Pod[]; readOn: string[]; gaps: CoverageGap[] },
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
    deployment,
    {
      ...objects,
      nodes: nodes.items,
      neighbours: neighbours.pods,
      ...(dra?.objects ? { dra: dra.objects } : {}),
    },
    { capturedAt: new Date().toISOString(), coverage, accessProblems },
  );
}
