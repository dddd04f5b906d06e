/**
 * set-rolling-update for a DaemonSet: spec.updateStrategy RollingUpdate with maxSurge 0
 * and maxUnavailable 1 (a DaemonSet has no Recreate). No restart is needed: once the
 * DaemonSet no longer allows surge, its controller deletes the excess pod on each node,
 * the newest, which is the stuck surge pod (pkg/controller/daemon/daemon_controller.go,
 * podsShouldBeOnNode: "more than 1 daemon pod is running, delete the excess daemon
 * pods ... so the oldest is preserved"), then replaces the old pods maxUnavailable nodes
 * at a time (update.go, rollingUpdate without surge). Pure.
 */
import { warningsFrom, withImpact, type NodeAgent, type PlanSaid } from '../plan-words.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import type { Finding } from '../../diagnosis/finding.js';
import { workloadKind, workloadObject } from '../../diagnosis/workloads/index.js';
import { planId } from '../plan-id.js';
import type { RemediationPlan } from '../plan.js';
import { commonWarnings, describePrevious, type Situation } from './strategy-situation.js';
import {
  inverseStrategyPatch,
  liveStrategy,
  strategyPatch,
  strategyPreconditions,
} from './strategy-patch.js';
import { nodeAgentOf } from './template-facts.js';
import { maxFixUnavailable } from './strategy-bounds.js';

export function daemonSetRollingUpdatePlan(
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
  s: Situation,
): RemediationPlan[] {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const object = workloadObject(snapshot);
  // spec.updateStrategy: where the kind keeps its strategy.
  const FIELD = kind.strategyAt.field;
  const nodes = kind.desiredReplicas(object);
  const unavailable = Math.max(1, s.proof.release);
  // Never every node's pod at once (strategy-bounds.ts).
  if (unavailable > maxFixUnavailable(nodes)) return [];
  const patch = strategyPatch(
    { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: unavailable } } },
    FIELD,
  );
  const stuck = s.proof.stuckPods.map((p) => p.metadata.name ?? '').filter(Boolean);
  const now = s.restart
    ? ` The DaemonSet controller then deletes the stuck surge pod${stuck.length === 1 ? '' : 's'} ${stuck.join(', ')} (without surge a second pod on a node is excess) and replaces the old pods ${unavailable} node at a time; no restart is needed.`
    : " Nothing changes now (the strategy is not in the pod template); the next rollout replaces each node's pod before starting its new one.";
  const agent = nodeAgentOf(kind.podTemplate(object).spec);
  const worded = warningsFrom([
    ...commonWarnings(object, { ...s, restart: false }, describePrevious(object, FIELD)),
    ...(agent ? [gapWords(agent, unavailable)] : []),
  ]);
  return [
    {
      id: planId('set-rolling-update', object.metadata.uid ?? '', object.metadata.generation ?? 0, patch),
      kind: 'set-rolling-update',
      target: snapshot.target,
      summary: `Let each node's old pod go first: updateStrategy RollingUpdate maxSurge 0, maxUnavailable ${unavailable}.${now}`,
      ...withImpact({ key: 'daemonOldFirst', params: { restart: s.restart, unavailable, nodes } }),
      ...worded,
      patch,
      preconditions: strategyPreconditions(object, false, FIELD),
      inverse: inverseStrategyPatch(liveStrategy(object, FIELD), FIELD),
      addresses: finding.code,
    },
  ];
}

/** The warning that the node runs without its agent while the pod is replaced. */
function gapWords(agent: NodeAgent, unavailable: number): PlanSaid {
  const params = { unavailable };
  switch (agent) {
    case 'cni':
      return { key: 'daemonGapCni', params };
    case 'csi':
      return { key: 'daemonGapCsi', params };
    case 'device':
      return { key: 'daemonGapDevice', params };
  }
}
