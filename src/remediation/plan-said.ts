/**
 * What a plan keeps of its words (its impact and some warnings): a message of the plan
 * catalogue (src/remediation/plan-words.ts) and its parameters. The parameters are
 * typed here, apart from the catalogue, so the plan's type names them without
 * importing the catalogue and what it imports.
 */

/** When a strategy change acts: now (a restart), from a paused workload's resume on, or at the next rollout only. */
export type Lead = { paused: boolean; restart: boolean };

export interface PlanParams {
  rollingOldFirst: Lead & { down: number; replicas: number };
  recreate: Lead & { replicas: number };
  scaleOldOnly: { replicaSet: string };
  scaleOldAll: { from: number; newReady: number };
  scaleOldStepped: { replicas: number };
  restartedAt: { paused: boolean; quota?: string; stuck?: string };
  undoPrevious: { previous: string };
  /**
   * `scalesNow`: pods the controller removes as soon as the change is applied, paused or
   * not (sync.go scale: the ReplicaSets may hold spec.replicas + maxSurge; 0: none), of
   * `holding` the ReplicaSets hold now.
   */
  pausedStrategy: { restart: boolean; command: string; scalesNow: number; holding: number };
  fromManifest: { kind: string };
  recreateLater: Record<string, never>;
  /** exclude-node of crashing nodes by name, every node read; `ttl` absent: until removed. */
  excludeHost: {
    after: number;
    before: number;
    eligible: string;
    excluded: string;
    strategy: string;
    replicas: number;
    ttl?: string;
    /**
     * The crash-looping pods the StatefulSet controller must see deleted before the
     * exclusion reaches them (builders/exclusion-waits.ts), `waitsOne` of them; `onDelete`:
     * because no pod is replaced until deleted, else because OrderedReady waits for them.
     */
    waits?: string;
    waitsOne?: boolean;
    onDelete?: boolean;
  };
  /** exclude-node by a label the crashing nodes share, every node read; `others`: excluded nodes no pod of ours runs on. */
  excludeLabel: PlanParams['excludeHost'] & { label: string; values: readonly string[]; others?: string };
  /**
   * exclude-node of a DaemonSet, every node read: `name`'s pods go from `nodes` (`count`
   * of them); by what the pod does for its node (template-facts.ts nodeAgentOf) one of four keys.
   */
  excludeDaemon: { name: string; nodes: string; count: number; after: number; before: number; ttl?: string };
  excludeDaemonCni: PlanParams['excludeDaemon'];
  excludeDaemonCsi: PlanParams['excludeDaemon'];
  excludeDaemonDevice: PlanParams['excludeDaemon'];
  /** exclude-node of a DaemonSet: its pods on `nodes` are deleted, not moved. */
  daemonDeleted: { nodes: string };
  /** exclude-node of a StatefulSet: its pods' `claims` (`more` beyond those named) may hold them to `nodes`. */
  statefulClaims: { claims: string; more: boolean; nodes: string; command: string };
  /** exclude-node: every node that stays eligible read, room for `fits` of `replicas`. */
  roomShort: { fits: number; replicas: number };
  /** …room for `fits` on the `read` nodes read (`nodes`); other nodes the template may use not read. */
  roomOthersUnread: { nodes: string; read: number; fits: number; replicas: number };
  /**
   * …and the pods on `unread` nodes not read: not in the dump, `capped` (what, past the
   * cap), forbidden, or otherwise not read.
   */
  roomPartlyRead: PlanParams['roomOthersUnread'] & PlanParams['roomNoneRead'];
  /** …no node that stays eligible had its pods read. */
  roomNoneRead: { replicas: number; unread: string; dump: boolean; forbidden: boolean; capped?: string };
  /**
   * exclude-node covering `sharing` nodes that share `attributes` (each `label=value` or
   * `field value`) with the crashing `bad` nodes; `one`: a single sharing node.
   */
  sharedAlso: { sharing: string; one: boolean; attributes: readonly string[]; bad: string };
  /** …named by hostname, a label exclusion not admitted or too wide: a node added later is not kept off. */
  sharedNamedLabel: { attributes: readonly string[] };
  /** …named by hostname, the `fields` being no node label (nodeInfo, conditions). */
  sharedNamedField: { fields: readonly string[]; attributes: readonly string[] };
  /** Only the crashing `bad` nodes excluded; `suspects` share `attributes` but run no pod: a suspicion. */
  sharedSuspects: {
    bad: string;
    badOne: boolean;
    suspects: string;
    suspectsOne: boolean;
    attributes: readonly string[];
  };
  /**
   * delete-pods of `count` crash-looping pods on `nodes`; by how the kind makes them again
   * (diagnosis/workloads/remade-words.ts) one of four keys.
   */
  deleteCrashing: { count: number; nodes: string };
  deleteCrashingRollout: PlanParams['deleteCrashing'];
  deleteCrashingOrdered: PlanParams['deleteCrashing'];
  deleteCrashingParallel: PlanParams['deleteCrashing'];
  /**
   * delete-pods of a StatefulSet's crash-looping pods, after exclude-node: the exclusion
   * reaches them only once they are deleted (builders/exclusion-waits.ts), `onDelete`:
   * because no pod is replaced until deleted, else because OrderedReady waits for them;
   * `inPlace`: the template already carries the exclusion.
   */
  deleteAfterExclusion: PlanParams['deleteCrashing'] & { onDelete: boolean; inPlace: boolean };
  /**
   * Any plan for a rollout that goes on by itself once running Jobs end (`waitJobs`) or a
   * neighbour Deployment's rollout removes its old pods (`waitRollouts`): `names` of them,
   * `one` of them, `some`: enough of them, not each; `bound`: judged by a bound on room
   * (an Argo canary's steps, an end state), not a run.
   */
  waitJobs: { names: string; one: boolean; some: boolean; bound: boolean };
  /**
   * …`unread`: a neighbour's Deployment was not read, so whether it is paused is not
   * known; `starting`: its newest pods are not Ready yet.
   */
  /** `argo`: some of them are Argo Rollouts, whose controller removes the old pods at the end of the update. */
  waitRollouts: PlanParams['waitJobs'] & { unread: boolean; starting: boolean; argo: boolean };
  /** …or once a neighbour Deployment scaling down removes its pods above its replicas (`names`: "deployment ml/beta"). */
  waitScaleDown: { names: string };
  /** The same, bounded by its autoscaler: `max`, its maxReplicas. */
  waitScaleDownCapped: { names: string; max: string };
  /** rollout-restart of a paused Deployment; `resume` the command. */
  restartPaused: { recreate: boolean; replicas: number; resume: string };
  restartRecreate: { replicas: number };
  /** rollout-restart under RollingUpdate: `perNode` for one pod per node (a DaemonSet). */
  restartRolling: { replicas: number; perNode: boolean; surge: number; unavailable: number };
  restartPausedWarning: { resume: string };
  /** exclude-node under a required one-pod-per-node anti-affinity: fewer nodes than replicas. */
  antiOnePending: { eligible: number; replicas: number };
  /** …as many nodes as replicas, and the rolling update surges. */
  antiOneSurge: { eligible: number; replicas: number };
  /** exclude-node leaves one node for several replicas. */
  oneNodeLeft: { node: string; replicas: number };
  /** A DaemonSet's pod a node needs (template-facts.ts nodeAgentOf), gone while replaced: `unavailable` nodes at a time. */
  daemonGapCni: { unavailable: number };
  daemonGapCsi: { unavailable: number };
  daemonGapDevice: { unavailable: number };
  /** set-rolling-update on a DaemonSet: maxSurge 0, `unavailable` of `nodes` nodes at a time. */
  daemonOldFirst: { restart: boolean; unavailable: number; nodes: number };
  /** set-rolling-update on an Argo canary: maxSurge 0, `down` stable pods at a time. */
  canaryOldFirst: { restart: boolean; down: number; replicas: number };
  /** The canary bounds Undo restores (absent: the 25% default). */
  canaryUndo: { maxSurge?: string; maxUnavailable?: string };
  /** The canary's steps after the fix; `promote` the command. */
  canaryStepsKept: { promote: string };
  /** An Argo Rollout with spec.paused; `resume` the command. */
  rolloutPausedSpec: { resume: string };
  /** abort-rollout: the update's pods go at once. */
  abortNow: Record<string, never>;
  /** abort-rollout with abortScaleDownDelaySeconds 0: the update's pods stay. */
  abortKept: Record<string, never>;
  /** abort-rollout with dynamicStableScale: the update's pods go as the stable pods scale back up. */
  abortDynamic: Record<string, never>;
  /** abort-rollout: the update's pods go after `seconds` (absent: the 30 s default). */
  abortDelayed: { seconds?: number };
  abortRetry: { retry: string };
  abortNoUndo: Record<string, never>;
  /** delete-pods of the StatefulSet pod its ordered rollout waits for; `claims`: it has volumeClaimTemplates. */
  forcedRollback: { pod: string; claims: boolean };
  /** taint-device: `pods` of ours deleted so their claims get other devices than `device` on `node`. */
  taintDevice: { pods: number; device: string; node: string };
  /** delete-pods of crash-looping pods where no other node takes the template. */
  noOtherNode: { nodes: string };
  /**
   * exclude-node over an earlier live exclusion of `nodes`, carried on into the one
   * record: it ends no sooner than `until` (RFC 3339); …Never: the earlier one lasts
   * until removed, and so does the record.
   */
  exclusionCarried: { nodes: string; until: string };
  exclusionCarriedNever: { nodes: string };
}

/** What a DaemonSet's pod does for its node, from the host paths it mounts. */
export type NodeAgent = 'cni' | 'csi' | 'device';

/** One message of the plan catalogue with its parameters. */
export type PlanSaid = { [K in keyof PlanParams]: { key: K; params: PlanParams[K] } }[keyof PlanParams];
