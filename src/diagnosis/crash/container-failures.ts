/**
 * Classifies every container status of every pod into the failure kinds the
 * lifecycle analyzers report on. Pure: reads the pod, the pod's events and the
 * previous-container log tails from the snapshot; "now" is snapshot.capturedAt.
 */
import type { ContainerStateTerminated, ContainerStatus, KubeEvent, Pod } from '../k8s.js';
import {
  dedupeRefs,
  eventContainer,
  findMissingConfig,
  findProbeKills,
  type MissingConfigRef,
  type ProbeKill,
} from './kubelet-messages.js';
import type { AnalysisContext } from '../analysis-context.js';
import { START_ERROR_REASONS } from '../base/crash-nodes.js';
import { logKey, type WorkloadSnapshot } from '../snapshot/types.js';

export { eventTime, findMissingConfig, type MissingConfigRef, type ProbeKill } from './kubelet-messages.js';

type FailureKind =
  | 'crash-loop'
  | 'oom-killed'
  | 'exec-format-error'
  | 'config-error'
  | 'image-pull'
  | 'probe-kill'
  | 'start-error';

export interface ContainerReport {
  pod: string;
  podUid: string;
  node?: string;
  templateHash?: string;
  container: string;
  init: boolean;
  image?: string;
  ready: boolean;
  restartCount: number;
  waitingReason?: string;
  waitingMessage?: string;
  /** The most recent termination: the current state when terminated, else lastState. */
  lastTermination?: ContainerStateTerminated;
  failures: FailureKind[];
  missingConfig: MissingConfigRef[];
  probeKills: ProbeKill[];
  /** Image pull failure text (waiting message or the kubelet's Failed event). */
  pullError?: string;
  /** Where "exec format error" was seen (termination message, log tail or event). */
  execFormatEvidence?: string;
  logTail?: string;
}

const TEN_MINUTES_MS = 10 * 60 * 1000;
const IMAGE_PULL_REASONS = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'ErrImageNeverPull',
]);
const EXEC_FORMAT = /exec format error/i;

/**
 * Every container (init and regular) of every pod in the context's snapshot,
 * classified. Seven analyzers and a plan builder read the same reports: computed once
 * per analysis context and shared (the array is frozen).
 */
export function classifyContainers(ctx: AnalysisContext): readonly ContainerReport[] {
  return ctx.once('container-reports', () => Object.freeze(computeReports(ctx.snapshot)));
}

function computeReports(snapshot: WorkloadSnapshot): ContainerReport[] {
  const now = Date.parse(snapshot.capturedAt);
  // Index pod events by name once: a snapshot can hold hundreds of pods and thousands of events.
  const byName = new Map<string, KubeEvent[]>();
  for (const event of snapshot.events) {
    const name = event.involvedObject.name;
    if (event.involvedObject.kind !== 'Pod' || !name) continue;
    const list = byName.get(name);
    if (list) list.push(event);
    else byName.set(name, [event]);
  }
  return snapshot.pods.flatMap((pod) =>
    classifyPod(pod, eventsOfPod(pod, byName.get(pod.metadata.name ?? '') ?? []), snapshot.logs, now),
  );
}

/** Events whose involvedObject is this pod (uid checked when both sides have one). */
function eventsOfPod(pod: Pod, events: readonly KubeEvent[]): KubeEvent[] {
  const { name, uid, namespace } = pod.metadata;
  return events.filter((e) => {
    const o = e.involvedObject;
    if (o.kind !== 'Pod' || o.name !== name) return false;
    if (o.namespace && namespace && o.namespace !== namespace) return false;
    return !(o.uid && uid && o.uid !== uid);
  });
}

function classifyPod(
  pod: Pod,
  podEvents: readonly KubeEvent[],
  logs: Record<string, string>,
  now: number,
): ContainerReport[] {
  const statuses = [
    ...(pod.status?.initContainerStatuses ?? []).map((s) => ({ s, init: true })),
    ...(pod.status?.containerStatuses ?? []).map((s) => ({ s, init: false })),
  ];
  return statuses.map(({ s, init }) => classifyContainer(pod, s, init, podEvents, logs, now));
}

function classifyContainer(
  pod: Pod,
  status: ContainerStatus,
  init: boolean,
  podEvents: readonly KubeEvent[],
  logs: Record<string, string>,
  now: number,
): ContainerReport {
  const podName = pod.metadata.name ?? '';
  const lastTermination = status.state?.terminated ?? status.lastState?.terminated;
  const waiting = status.state?.waiting;
  const logTail = logs[logKey(podName, status.name)];
  const report: ContainerReport = {
    pod: podName,
    podUid: pod.metadata.uid ?? '',
    container: status.name,
    init,
    ready: status.ready,
    restartCount: status.restartCount,
    failures: [],
    missingConfig: [],
    probeKills: [],
  };
  if (pod.spec.nodeName) report.node = pod.spec.nodeName;
  const templateHash = pod.metadata.labels?.['pod-template-hash'];
  if (templateHash) report.templateHash = templateHash;
  if (status.image) report.image = status.image;
  if (waiting?.reason) report.waitingReason = waiting.reason;
  if (waiting?.message) report.waitingMessage = waiting.message;
  if (lastTermination) report.lastTermination = lastTermination;
  if (logTail) report.logTail = logTail;
  // Nothing waiting, nothing terminated, no event, no log: no failure to find (most
  // containers of a large DaemonSet), so the text checks below are skipped.
  if (!waiting && !lastTermination && podEvents.length === 0 && logTail === undefined) return report;

  const events = podEvents.filter((e) => eventContainer(e) === status.name);
  const podLevelEvents = podEvents.filter((e) => eventContainer(e) === undefined);
  const failures = report.failures;
  if (isCrashLooping(status, now)) failures.push('crash-loop');
  if (lastTermination?.reason === 'OOMKilled') failures.push('oom-killed');

  const execFormatEvidence = [
    lastTermination?.message,
    waiting?.message,
    logTail,
    ...events.map((e) => e.message),
  ].find((text): text is string => text !== undefined && EXEC_FORMAT.test(text));
  if (execFormatEvidence !== undefined) failures.push('exec-format-error');

  report.missingConfig = dedupeRefs(
    [waiting?.message, ...[...events, ...podLevelEvents].map((e) => e.message)].flatMap((text) =>
      text ? findMissingConfig(text) : [],
    ),
  );
  if (waiting?.reason === 'CreateContainerConfigError' || report.missingConfig.length > 0)
    failures.push('config-error');

  if (waiting?.reason && IMAGE_PULL_REASONS.has(waiting.reason)) {
    const pullEvent = events.find(
      (e) => e.reason === 'Failed' && /^Failed to pull image/.test(e.message ?? ''),
    );
    const pullError = pullEvent?.message ?? waiting.message ?? waiting.reason;
    if (pullError) report.pullError = pullError;
    failures.push('image-pull');
  }

  report.probeKills = findProbeKills(events);
  if (report.probeKills.length > 0) failures.push('probe-kill');

  if ([waiting?.reason, lastTermination?.reason].some((r) => r !== undefined && START_ERROR_REASONS.has(r))) {
    failures.push('start-error');
  }
  if (execFormatEvidence !== undefined) report.execFormatEvidence = execFormatEvidence;
  return report;
}

/**
 * A container is crash-looping when the kubelet holds it in CrashLoopBackOff, or it
 * has restarted and is dead or waiting again, or it keeps restarting and the last
 * start was less than 10 minutes ago. The kubelet resets the restart back-off
 * (10s doubling to 300s) only after 10 minutes of clean running, so a container
 * that has run longer than that since its last restart has recovered.
 */
export function isCrashLooping(status: ContainerStatus, now: number): boolean {
  if (status.state?.waiting?.reason === 'CrashLoopBackOff') return true;
  if (status.restartCount < 1 || !status.lastState?.terminated) return false;
  if (status.state?.terminated || status.state?.waiting) return true;
  const startedAt = Date.parse(status.state?.running?.startedAt ?? '');
  if (Number.isNaN(startedAt) || Number.isNaN(now)) return status.restartCount >= 2;
  if (recovered(status, now - startedAt)) return false;
  return status.restartCount >= 2 && now - startedAt < TEN_MINUTES_MS;
}

/** Ready this long, and twice as long as its last run lasted: the loop stopped (restarts and lastState stay). */
const RECOVERED_AFTER_MS = 5 * 60_000;

/**
 * A crash loop is a state, not a history (DESIGN.md §4d): a container that is Ready and
 * has run for five minutes, and twice as long as its previous run lasted before it
 * died, stopped crashing, whatever its restart count and lastState still say (the
 * kubelet itself forgets the back-off only after ten). One that crashes after a few
 * minutes each time has not run twice that long yet, and still loops.
 */
function recovered(status: ContainerStatus, runningMs: number): boolean {
  if (!status.ready || runningMs < RECOVERED_AFTER_MS) return false;
  const last = status.lastState?.terminated;
  const lasted = Date.parse(last?.finishedAt ?? '') - Date.parse(last?.startedAt ?? '');
  return Number.isFinite(lasted) && runningMs >= 2 * lasted;
}

/** A pod counts as healthy when it is Running, Ready, and none of its containers crash-loop. */
export function isHealthyPod(pod: Pod, reports: readonly ContainerReport[]): boolean {
  if (pod.metadata.deletionTimestamp || pod.status?.phase !== 'Running') return false;
  const ready = pod.status.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  const mine = reports.filter((r) => r.podUid === (pod.metadata.uid ?? '') && r.pod === pod.metadata.name);
  return ready && !mine.some((r) => r.failures.includes('crash-loop'));
}
