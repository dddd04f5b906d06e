import type { Analyzer } from '../analyzer.js';
import { spanWords } from '../../text/time.js';
import {
  crashPictures,
  describeContainers,
  templateLabel,
  type TemplateCrashPicture,
} from '../crash/crash-distribution.js';
import type { Evidence, Finding } from '../finding.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import {
  crashDeviceHealth,
  deviceHealthEvidence,
  deviceWords,
  unknownHealthSentence,
  extendedHealthSentence,
} from '../crash/device-health.js';

/**
 * CrashLoop: pods of a template crash-loop and the node is not the explanation:
 * no pod of that template is healthy anywhere, a node runs crashing and healthy
 * pods side by side, or the crashing nodes are the majority and no node attribute
 * separates them from the healthy ones. Excluding a node would not help here.
 */
export const crashLoop: Analyzer = {
  name: 'crash-loop',
  analyze(ctx) {
    const { snapshot } = ctx;
    return crashPictures(ctx)
      .filter((p) => !p.nodeLocal)
      .map((p) => finding(snapshot, p));
  },
};

function finding(snapshot: WorkloadSnapshot, p: TemplateCrashPicture): Omit<Finding, 'remediations'> {
  const crashNodes = p.rows.filter((r) => r.crashing > 0);
  const exit = crashNodes.find((r) => r.lastExitCode !== undefined);
  const exitText = exit
    ? `; last exit code ${exit.lastExitCode}${exit.lastReason ? ` (${exit.lastReason})` : ''}`
    : '';
  const total = p.rows.reduce((sum, r) => sum + r.pods, 0);
  const scope =
    p.healthyPods.length === 0 && crashNodes.length > 1
      ? `on every node it runs on (${crashNodes.map((r) => r.node).join(', ')})`
      : p.healthyPods.length === 0
        ? `on ${crashNodes.map((r) => r.node).join(', ')}, the only node it runs on`
        : `on ${crashNodes.map((r) => r.node).join(', ')}`;
  const why = whyNotNodeLocal(p);
  // A crashing pod next to a healthy one on the same (multi-GPU) node: its device may be the cause.
  const health = crashDeviceHealth(snapshot, p, 'all');
  const blamed = health?.blamed ?? [];
  const evidence: Evidence[] = [
    { type: 'crash-table', rows: p.rows, containers: p.containers },
    ...deviceHealthEvidence(health),
  ];
  const crashing = new Set(p.containers.map((c) => c.name));
  const withLog =
    p.reports.find(
      (r) =>
        r.logTail && crashing.has(r.container) && p.crashingPods.some((pod) => pod.metadata.name === r.pod),
    ) ?? p.reports.find((r) => r.logTail && p.crashingPods.some((pod) => pod.metadata.name === r.pod));
  if (withLog?.logTail)
    evidence.push({ type: 'log', pod: withLog.pod, container: withLog.container, tail: withLog.logTail });
  evidence.push({ type: 'note', text: why });
  if (p.clue) {
    evidence.push({
      type: 'note',
      text: `Clue in the ${p.clue.source === 'log' ? 'previous log' : 'termination message'} of ${p.clue.pod}/${p.clue.container}: "${p.clue.text}" (${p.clue.meaning}).`,
    });
  }
  return {
    code: 'CrashLoop',
    severity: p.current || p.healthyPods.length === 0 ? 'critical' : 'warning',
    summary:
      `${snapshot.target.name} crash-loops ${scope}: ${describeContainers(p.containers)} fails in ${p.crashingPods.length} of ${total} pods of ${templateLabel(p)}${exitText}.` +
      (blamed.length > 0
        ? ` The kubelet reports the crashing pods' device${blamed.length > 1 ? 's' : ''} ${blamed.map(deviceWords).join(', ')} Unhealthy: the device, not the application or the node, explains the crash.`
        : health?.verdict === 'unknown'
          ? `${unknownHealthSentence(health.unknown, health)}.`
          : health?.verdict === 'not-blamed'
            ? ' A device reports Unhealthy, but a running pod of the same template reports an Unhealthy device too: the device does not explain the crash.' +
              extendedHealthSentence(health)
            : ''),
    explanation:
      blamed.length > 0
        ? `${why} Every crashing pod holds a device the kubelet reports Unhealthy in allocatedResourcesStatus, while ` +
          'pods of the same template on other devices run healthy. Tainting just that device (a DeviceTaintRule, where ' +
          'the cluster serves it) keeps new claims off it; a NoSchedule taint moves no pod that already holds it, so its ' +
          'pods must be replaced too.'
        : `${why} ${causeWords(p, crashNodes.length)}; ` +
          'look at the exit code, the termination message and the previous-container log. The kubelet restarts it after ' +
          'a back-off of 10s, doubling up to 5 minutes, reset only after 10 minutes of clean running.',
    evidence,
  };
}

/** Where the cause lies, as far as the nodes tell: never "not the node" while a node that could be was not read. */
function causeWords(p: TemplateCrashPicture, crashNodes: number): string {
  if (p.unreadNodes.length > 0 && p.mixedNodes.length === 0 && p.healthyPods.length > 0)
    return 'Until they are read the node is neither blamed nor cleared, and the container (application error, configuration, resources) may be the cause';
  return crashNodes > 1 || p.healthyPods.length > 0
    ? 'The cause is in the container (application error, configuration, resources), not in one node'
    : 'The cause is most often in the container (application error, configuration, resources)';
}

function whyNotNodeLocal(p: TemplateCrashPicture): string {
  const crashNodes = p.rows.filter((r) => r.crashing > 0).map((r) => r.node);
  if (p.healthyPods.length === 0 && crashNodes.length === 1)
    return `No pod of this template is healthy, and all run on one node (${crashNodes.join('')}): one node cannot tell a fault of the node from one of the container (a pod of it on another node would).`;
  if (p.healthyPods.length === 0) return 'No pod of this template is healthy on any node.';
  if (p.mixedNodes.length > 0) {
    return `Pods of the same template run healthy on the same node as crashing ones (${p.mixedNodes.join(', ')}), so the node is not the cause.`;
  }
  if (p.unsettledNodes.length > 0 && p.separator) {
    const majority = p.badNodes.length > p.goodNodes.length;
    const lead = majority
      ? `The template crashes on more nodes (${p.badNodes.length}) than it runs healthy on (${p.goodNodes.length}), and the `
      : 'The ';
    const young =
      p.crashAfterMs !== undefined && (!majority || p.crashAfterMs > 10 * 60_000)
        ? `have run for less than the ${spanWords(p.crashAfterMs / 1000)} the crashing container ran before it failed`
        : 'started less than 10 minutes ago';
    return (
      `${lead}healthy pods on ${p.unsettledNodes.join(', ')} ${young}: too early to tell whether they ` +
      `stay up, so the difference in ${p.separator.fields.join(' + ')} is not taken for the cause yet (diagnose again in a few minutes).`
    );
  }
  if (p.unreadNodes.length > 0) {
    const spread =
      p.badNodes.length > p.goodNodes.length
        ? `The template crashes on more nodes (${p.badNodes.length}) than it runs healthy on (${p.goodNodes.length})`
        : `The template crashes on ${p.badNodes.length} node${p.badNodes.length === 1 ? '' : 's'} (${p.badNodes.join(', ')}) and runs healthy on ${p.goodNodes.length}`;
    return (
      `${spread}, and the Node objects of ${p.unreadNodes.join(', ')} were not read, so whether a node attribute ` +
      'separates them is unknown (kubectl get nodes -o yaml, or list permission on nodes, settles it).'
    );
  }
  if (p.badNodes.length <= p.goodNodes.length)
    return `The template crashes on ${p.badNodes.length} node${p.badNodes.length === 1 ? '' : 's'} (${p.badNodes.join(', ')}) and runs healthy on ${p.goodNodes.length}, but no node attribute separates them and the failure's own words (or its cause: out of memory, a configuration error) do not point at the node, so the node is not blamed on this evidence.`;
  return `The template crashes on more nodes (${p.badNodes.length}) than it runs healthy on (${p.goodNodes.length}) and no node attribute that could cause a crash (conditions, CPU, kernel, runtime, OS image, kubelet, taints) separates the crashing nodes from the healthy ones, so the nodes do not explain it.`;
}
