/**
 * The placement model's shapes: what blocks a pod on a node and who holds it, and the
 * per-diagnosis index the checks share. Types only, so placement.ts and the pod rules
 * it calls (placement-pod-rules.ts) both import them without importing each other.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { HostPort } from '../base/pod-constraints.js';
import type { ResourceAmounts } from '../base/resources.js';
import type { Node, Pod } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import type { DeviceBlocker } from '../dra/device-blocker.js';

export interface HolderRef {
  pod: Pod;
  /** How much of the resource it holds (1 for ports, volumes and affinity). */
  amount: number;
}

export type Blocker =
  | {
      kind: 'resource';
      resource: string;
      need: number;
      allocatable: number;
      /**
       * The node's capacity of it. More than allocatable 0 means the device is there
       * but none of it is usable: a device plugin reporting it unhealthy.
       */
      capacity: number;
      used: number;
      holders: HolderRef[];
    }
  | { kind: 'host-port'; port: HostPort; holders: HolderRef[] }
  | { kind: 'anti-affinity'; topologyKey: string; domain: string; holders: HolderRef[] }
  /**
   * A DoNotSchedule topology spread constraint: placing the pod in the node's domain
   * makes the skew (`skew`) exceed `maxSkew`; holders are the matching pods counted
   * there. `domain` '' with `missingLabel`: the node lacks the topology key.
   */
  | {
      kind: 'topology-spread';
      topologyKey: string;
      domain: string;
      maxSkew: number;
      skew: number;
      missingLabel?: true;
      /**
       * The lasting manifest change, where one applies: 'nodeTaintsPolicy' when the
       * minimum comes from domains of tainted nodes the pod cannot use (counted under the
       * default Ignore); 'matchLabelKeys' when pods of other revisions count against it.
       */
      lastingFix?: 'nodeTaintsPolicy' | 'matchLabelKeys';
      holders: HolderRef[];
    }
  /**
   * A claim the pod needs: missing, unbound, a ReadWriteOncePod in use, or bound to a
   * volume whose node affinity leaves this node out ('node-affinity', the scheduler's
   * "volume node affinity conflict": a local volume, `volume` naming it).
   */
  | {
      kind: 'volume';
      claim: string;
      problem: 'not-found' | 'unbound' | 'in-use-rwop' | 'node-affinity';
      volume?: string;
      holders: HolderRef[];
    }
  /** DRA: devices for one request of the pod's claims (or an extended resource a DeviceClass backs). */
  | DeviceBlocker;

/** The domains of one spread constraint and the matching pods counted in each. */
export interface SpreadDomains {
  /** Domain value → counted pods (matching, bound, not terminating). */
  pods: Map<string, Pod[]>;
  /** Domain value → its nodes. */
  nodes: Map<string, Node[]>;
}

/** What the incoming pod asks for, computed once per pod (it is checked against every node). */
export interface IncomingProfile {
  need: [string, number][];
  ports: HostPort[];
}

export interface PlacementContext {
  /** The analysis this index belongs to (the DRA index lives there too). */
  analysis: AnalysisContext;
  snapshot: WorkloadSnapshot;
  nodesByName: Map<string, Node>;
  /** Bound, non-terminal pods (ours and others) by node name. */
  occupantsByNode: Map<string, Pod[]>;
  /** Pods of this Deployment. */
  ours: ReadonlySet<Pod>;
  /** Old pods of ours the controller removes by itself (kind module `leavingPods`): they go as terminating ones do. */
  leaving: ReadonlySet<Pod>;
  /** Bound pods that carry a required pod anti-affinity (checked against incoming pods). */
  antiAffinityHolders: Pod[];
  requests: (pod: Pod) => ResourceAmounts;
  allocatable: (node: Node) => ResourceAmounts;
  /** Incoming pods' profiles (profileOf). */
  profiles: WeakMap<Pod, IncomingProfile>;
  /** Bound pods by the value of a node label, per label key (placement-pod-rules.ts). */
  domainIndexes: Map<string, Map<string, Pod[]>>;
  /** Per incoming pod and constraint, the matching pods per domain (topology-spread.ts). */
  spreadCounts: WeakMap<Pod, Map<number, SpreadDomains>>;
}
