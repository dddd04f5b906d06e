/**
 * Where a DaemonSet's rollout stands, in kubectl's and the controller's own terms:
 * `kubectl rollout status` (kubectl polymorphichelpers/rollout_status.go,
 * DaemonSetStatusViewer; the exact lines are checked against the real kubectl in
 * test/integration/kubectl.test.ts), the status counts in a line, and whether the
 * rollout is under way. A DaemonSet has no progress deadline: the controller never
 * gives up, so nothing says "stalled" but the counts. Pure.
 */
import { codeSpan } from '../../../text/code-span.js';
import { isReady, isTerminal, isTerminating } from '../../base/pods.js';

/** How long a new pod may take to become Ready before its absence needs explaining. */
const COMING_UP_MS = 10 * 60 * 1000;
import type { DaemonSet } from '../../k8s-workloads.js';
import type { Pod } from '../../k8s.js';
import type { ResolvedStrategy } from '../../resolved-strategy.js';
import type { RolloutVerdict } from '../../workload-kind.js';
import { desiredPods } from './daemonset-strategy.js';

/** `kubectl rollout status daemonset/NAME`, as a verdict with kubectl's line. */
export function rolloutProgress(daemonSet: DaemonSet, sinceGeneration = 0): RolloutVerdict {
  const name = daemonSet.metadata.name ?? '';
  const generation = daemonSet.metadata.generation ?? 0;
  const status = daemonSet.status ?? {};
  const observed = status.observedGeneration ?? 0;
  const desired = desiredPods(daemonSet);
  const updated = status.updatedNumberScheduled ?? 0;
  const available = status.numberAvailable ?? 0;
  const base = {
    generation,
    observedGeneration: observed,
    replicas: desired,
    updated,
    ready: status.numberReady ?? 0,
    available,
    statusRead: daemonSet.status !== undefined,
  };
  const line = (message: string) => ({ ...base, message });
  if (observed < generation || observed < sinceGeneration) {
    return { state: 'progressing', progress: line('Waiting for daemon set spec update to be observed...') };
  }
  if (updated < desired) {
    return {
      state: 'progressing',
      progress: line(
        `Waiting for daemon set "${name}" rollout to finish: ${updated} out of ${desired} new pods have been updated...`,
      ),
    };
  }
  if (available < desired) {
    return {
      state: 'progressing',
      progress: line(
        `Waiting for daemon set "${name}" rollout to finish: ${available} of ${desired} updated pods are available...`,
      ),
    };
  }
  return { state: 'complete', progress: line(`daemon set "${name}" successfully rolled out`) };
}

/** The status counts in a line, and whether they say the rollout is done. */
export function statusSummary(daemonSet: DaemonSet): { text: string; complete: boolean } {
  const status = daemonSet.status ?? {};
  const desired = desiredPods(daemonSet);
  const updated = status.updatedNumberScheduled ?? 0;
  const available = status.numberAvailable ?? 0;
  const unavailable = status.numberUnavailable ?? 0;
  const misscheduled = status.numberMisscheduled ?? 0;
  const observed = (status.observedGeneration ?? 0) >= (daemonSet.metadata.generation ?? 0);
  const complete = observed && updated >= desired && available >= desired && unavailable === 0;
  const parts = [`${updated} of ${desired} node(s) updated`, `${available} available`];
  if (unavailable > 0) parts.push(`${unavailable} unavailable`);
  if (misscheduled > 0) parts.push(`${misscheduled} on nodes it should not run on`);
  if (!observed) parts.push('its latest spec not yet observed');
  return { text: `${parts.join(', ')}${complete ? '' : ' (the rollout is not complete)'}`, complete };
}

/** Why the DaemonSet is not in its steady state (one current pod on each node it wants), or undefined. */
export function rolloutUnderWay(
  daemonSet: DaemonSet,
  pods: readonly Pod[],
  currentHash: string | undefined,
  now: number,
): string | undefined {
  const generation = daemonSet.metadata.generation;
  const status = daemonSet.status;
  const observed = status?.observedGeneration;
  if (generation !== undefined && observed !== undefined && observed < generation) {
    return `the controller has not yet acted on generation ${generation} (observed ${observed})`;
  }
  if (currentHash === undefined) return 'no ControllerRevision carries the current template yet';
  const oldPod = pods.find(
    (p) => !isTerminal(p) && p.metadata.labels?.['controller-revision-hash'] !== currentHash,
  );
  if (oldPod) return `pod ${oldPod.metadata.name ?? ''} is of an older revision`;
  const desired = desiredPods(daemonSet);
  if (status?.updatedNumberScheduled !== undefined && status.updatedNumberScheduled < desired) {
    return `${status.updatedNumberScheduled} of ${desired} nodes run the current template`;
  }
  // A pod created in the last ten minutes that is not Ready yet is still coming up (a
  // new node, a replaced pod): that shortfall is the rollout's. An older one is not, and
  // the Unavailable analyzer must explain it (never "no problem found" on a degraded set).
  const young = pods.find(
    (p) =>
      !isTerminal(p) && !isReady(p) && now - Date.parse(p.metadata.creationTimestamp ?? '') < COMING_UP_MS,
  );
  if (young && status?.numberAvailable !== undefined && status.numberAvailable < desired) {
    return `${status.numberAvailable} of ${desired} pods are available (${young.metadata.name ?? ''} is still coming up)`;
  }
  const live = pods.filter((p) => !isTerminal(p)).length;
  if (status && live > desired) return `${live} pods exist for ${desired} nodes`;
  const terminating = pods.find(isTerminating);
  if (terminating) return `pod ${terminating.metadata.name ?? ''} is terminating`;
  return undefined;
}

/** What kubectl prints for this rollout that reads as if it were progressing (the surge deadlock). */
export function nativeSignalsNote(daemonSet: DaemonSet, strategy: ResolvedStrategy): string {
  const status = rolloutProgress(daemonSet).progress.message;
  const parts = [
    `${codeSpan('kubectl rollout status')} prints "${status}" and waits until its --timeout, with no end by default: with maxSurge the DaemonSet controller deletes a node's old pod only once the new pod beside it is available, and a DaemonSet has no progress deadline to give up on.`,
  ];
  if (strategy.maxSurge && strategy.maxSurge.value > 0) {
    parts.push(
      `The surge pod is pinned to the same node as the old one (${codeSpan('matchFields metadata.name')}), so the scheduler cannot place it anywhere else; the other nodes show up as "didn't satisfy plugin(s) [NodeAffinity]".`,
    );
  }
  return parts.join(' ');
}
