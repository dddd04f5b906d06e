/**
 * A pending pod the cluster autoscaler is adding a node for. When a pod does not fit,
 * the autoscaler simulates its node groups and, where a new node would take it, grows
 * one and records `TriggeredScaleUp` on the pod ("pod triggered scale-up: [{group 1->2
 * (max: 4)}]"); where none would, `NotTriggerScaleUp` ("pod didn't trigger scale-up:
 * …"), again on later loops (cluster-autoscaler core/scaleup, utils/eventing). The
 * scheduler keeps writing FailedScheduling until the node is Ready, so the scheduler's
 * words alone read as "no room, ever": a rollout waiting for that node is moving, not
 * stuck, and taking serving pods down would only lose capacity.
 *
 * Under way only while the autoscaler's latest word on the pod is the trigger, and for
 * as long as the autoscaler itself waits for a node (--max-node-provision-time, 15
 * minutes by default): after that it gives the node group up and says
 * NotTriggerScaleUp, or nothing, and the pod is judged on the nodes as they are.
 */
import { eventTime, eventsOfPod } from '../base/pod-events.js';
import type { Pod } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';

export interface ScaleUp {
  /** When the autoscaler triggered it (the event's last occurrence). */
  at: string;
  /** The autoscaler's words: the node groups and sizes ("[{gpu-pool 1->2 (max: 4)}]"). */
  message: string;
}

/** How long the autoscaler waits for a node it asked for (its --max-node-provision-time default). */
const NODE_PROVISION_MS = 15 * 60_000;

const TRIGGERED = 'TriggeredScaleUp';
const NOT_TRIGGERED = 'NotTriggerScaleUp';

/** The scale-up under way for `pod`, or undefined. */
export function scaleUpUnderWay(
  snapshot: Pick<WorkloadSnapshot, 'events' | 'capturedAt'>,
  pod: Pod,
): ScaleUp | undefined {
  const latest = eventsOfPod(snapshot.events, pod)
    .filter((e) => e.reason === TRIGGERED || e.reason === NOT_TRIGGERED)
    .sort((a, b) => eventTime(b).localeCompare(eventTime(a)))[0];
  if (latest?.reason !== TRIGGERED) return undefined;
  const at = eventTime(latest);
  const age = Date.parse(snapshot.capturedAt) - Date.parse(at);
  // An undated trigger, or one the autoscaler has stopped waiting for, is not under way.
  if (!Number.isFinite(age) || age > NODE_PROVISION_MS) return undefined;
  return { at, message: latest.message ?? '' };
}
