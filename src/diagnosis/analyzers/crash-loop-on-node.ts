import type { FindingWords } from '../finding-words.js';
import type { Analyzer } from '../analyzer.js';
import {
  crashPictures,
  describeContainers,
  templateLabel,
  type TemplateCrashPicture,
} from '../crash/crash-distribution.js';
import type { Evidence, Finding } from '../finding.js';
import { attributeWords, describeValues, type NodeSeparator } from '../crash/node-diff.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import {
  crashDeviceHealth,
  deviceHealthEvidence,
  deviceWords,
  unknownHealthSentence,
  extendedHealthSentence,
} from '../crash/device-health.js';
import { namedInstructionSet, type CrashClue } from '../crash/crash-clues.js';

/**
 * CrashLoopOnNode: the same pod template crashes on some nodes and runs Ready on
 * others, and the nodes explain it: a node attribute separates the crashing nodes
 * from the healthy ones whatever their numbers, or, without one, the crashing nodes
 * are a minority and the failure's own words point at the node (an illegal
 * instruction, a read-only file system, a missing syscall). One node whose crash has
 * a cause of its own (OOMKilled, a configuration error) is not blamed. Crashes on
 * every node, or next to a healthy sibling on the same node, are CrashLoop instead
 * (see crash-distribution.ts for the exact rule).
 */
export const crashLoopOnNode: Analyzer = {
  name: 'crash-loop-on-node',
  analyze(ctx) {
    const { snapshot } = ctx;
    return crashPictures(ctx)
      .filter((p) => p.nodeLocal)
      .map((p) => finding(snapshot, p));
  },
};

/** How many node names a sentence lists before "and N more". */
const LISTED = 5;

function finding(snapshot: WorkloadSnapshot, p: TemplateCrashPicture): Omit<Finding, 'remediations'> {
  const health = crashDeviceHealth(snapshot, p);
  const blamed = health?.blamed[0] !== undefined;
  // A clue that points at no difference the Node objects show (an illegal instruction
  // on nodes without CPU feature labels) is the decisive fact: it leads, and whatever
  // else separates the nodes (a kernel, an OS image) moves to the explanation.
  const clueLeads = p.clue !== undefined && p.clue.pointsAt === undefined && !blamed;
  return {
    code: 'CrashLoopOnNode',
    severity: 'critical',
    summary: summaryOf(snapshot.target.name, p, health, clueLeads),
    explanation: explanationOf(p, blamed, clueLeads),
    evidence: evidenceOf(snapshot, p, health),
    says: saysOf(snapshot.target.name, p),
  };
}

/** The headline's facts for readers of other languages (finding-words.ts). */
function saysOf(name: string, p: TemplateCrashPicture): FindingWords {
  const exit = p.rows.find((r) => p.badNodes.includes(r.node) && r.lastExitCode !== undefined);
  return {
    key: 'crash-loop-on-node',
    params: {
      name,
      badNodes: p.badNodes.join(', '),
      goodNodes: p.goodNodes.join(', '),
      containers: p.containers.map((c) => c.name).join(', '),
      crashing: p.crashingPods.length,
      total: p.crashingPods.length + p.healthyPods.length,
      ...(exit?.lastExitCode !== undefined ? { exitCode: exit.lastExitCode } : {}),
      ...(exit?.lastReason ? { reason: exit.lastReason } : {}),
    },
  };
}

/**
 * The headline: where and what separates the nodes open the first sentence, so a
 * one-line headline cut at its first ": " still says it; the container and counts
 * follow, then what the devices and the node objects say.
 */
function summaryOf(
  name: string,
  p: TemplateCrashPicture,
  health: ReturnType<typeof crashDeviceHealth>,
  clueLeads: boolean,
): string {
  const badRows = p.rows.filter((r) => p.badNodes.includes(r.node));
  const exit = badRows.find((r) => r.lastExitCode !== undefined);
  const exitText = exit
    ? `, last exit code ${exit.lastExitCode}${exit.lastReason ? ` (${exit.lastReason})` : ''}`
    : '';
  const total = p.crashingPods.length + p.healthyPods.length;
  const containers = describeContainers(p.containers);
  const blamed = health?.blamed[0];
  const k = p.badNodes.length;
  const pointed = p.clue?.pointsAt !== undefined && p.separator?.fields[0] === p.clue.pointsAt;
  const sep = p.separator && !clueLeads ? groupWords(p.separator, !pointed) : undefined;
  const what = sep ? `, ${sep.bad}` : p.clue && clueLeads ? `, ${clueWords(p.clue, k)}` : '';
  const where =
    k === 1
      ? `only on node ${p.badNodes[0]}${what}`
      : sep && k > 3
        ? `on the ${k} nodes ${sep.bad}`
        : k <= LISTED
          ? `only on nodes ${p.badNodes.join(', ')}${what}`
          : `on ${k} nodes (${list(p.badNodes)})${what}`;
  const g = p.goodNodes.length;
  const good = sep
    ? `the same template runs Ready on ${g === 1 ? 'the one' : `the ${g}`} ${sep.good}${g <= LISTED ? ` (${p.goodNodes.join(', ')})` : ''}`
    : `the same template runs Ready on ${list(p.goodNodes)}`;
  const deviceText = blamed
    ? ` The kubelet reports device ${deviceWords(blamed)} Unhealthy in the allocatedResourcesStatus of ${blamed.pod}/${blamed.container} on ${blamed.node}: the device, not the application, explains the crash.`
    : health?.verdict === 'unknown'
      ? `${unknownHealthSentence(health.unknown, health)}: the devices are neither blamed nor cleared.`
      : health?.verdict === 'not-blamed'
        ? ' A device reports Unhealthy, but a running pod of the same template reports an Unhealthy device too, or a crashing pod reports none Unhealthy: the device does not explain the crash.' +
          extendedHealthSentence(health)
        : health?.verdict === 'healthy'
          ? ' Every device the pods hold reports Healthy: the device is not blamed.'
          : '';
  const blameText = blamed
    ? ''
    : p.blame === 'node'
      ? p.unreadNodes.length > 0
        ? ` The Node objects of ${list(p.unreadNodes)} were not read, so their attributes could not be compared.`
        : ' No node attribute separates the crashing nodes from the healthy ones: suspect something on the node itself that its object does not show (disk, hardware, local files, a kernel module).'
      : '';
  return (
    `${name} crash-loops ${where}: ${containers} fails in ${p.crashingPods.length} of ${total} pods${exitText}; ` +
    `${good}.${deviceText}${blameText}`
  );
}

/** The crash table, device health, the node differences and clue, one log per distinct tail, and notes. */
function evidenceOf(
  snapshot: WorkloadSnapshot,
  p: TemplateCrashPicture,
  health: ReturnType<typeof crashDeviceHealth>,
): Evidence[] {
  const badRows = p.rows.filter((r) => p.badNodes.includes(r.node));
  const blamed = health?.blamed[0];
  const evidence: Evidence[] = [
    { type: 'crash-table', rows: p.rows, containers: p.containers },
    ...deviceHealthEvidence(health),
    {
      type: 'node-diff',
      badNodes: p.badNodes,
      goodNodes: p.goodNodes,
      differences: p.differences.map((d) => ({ ...d })),
      ...(p.separator ? { separator: separatorEvidence(p.separator) } : {}),
      ...(p.clue
        ? {
            clue: {
              text: p.clue.text,
              source: p.clue.source,
              pod: p.clue.pod,
              container: p.clue.container,
              ...(p.clue.pointsAt ? { pointsAt: p.clue.pointsAt } : {}),
              kind: p.clue.kind,
              meaning: p.clue.meaning,
            },
          }
        : {}),
    },
  ];
  // One log per distinct tail: seven nodes crashing the same way need one excerpt.
  const tails = new Set<string>();
  for (const row of badRows) {
    const report = p.reports.find((r) => r.node === row.node && r.logTail);
    if (!report?.logTail || tails.has(report.logTail.trim())) continue;
    tails.add(report.logTail.trim());
    evidence.push({ type: 'log', pod: report.pod, container: report.container, tail: report.logTail });
  }
  if (blamed) {
    const api = snapshot.deviceTaintRules;
    evidence.push({
      type: 'note',
      text:
        api === 'not-served'
          ? 'The cluster does not serve DeviceTaintRule (resource.k8s.io v1 or v1beta2), so only the node can be excluded, not the one device.'
          : api === undefined
            ? 'Whether the cluster serves DeviceTaintRule was not read (a dump, or discovery failed), so tainting just the device is not offered.'
            : `The cluster serves DeviceTaintRule (${api}): the device alone can be tainted, a cluster-wide rule that affects every tenant's new claims on it.`,
    });
  }
  const shared = sharedNote(p);
  if (shared) evidence.push({ type: 'note', text: shared });
  const suspect = suspectNote(p);
  if (suspect) evidence.push({ type: 'note', text: suspect });
  if (p.unreadNodes.length > 0) {
    evidence.push({
      type: 'note',
      text: `Node objects not collected for ${p.unreadNodes.join(', ')}: no comparison for them (kubectl get nodes -o yaml).`,
    });
  }
  return evidence;
}

/** Why the same template crashes only there, what the clue says, and what the stopgap and the fix are. */
function explanationOf(p: TemplateCrashPicture, blamed: boolean, clueLeads: boolean): string {
  const pointedAlso =
    p.clue?.pointsAt !== undefined && p.separator?.fields[0] === p.clue.pointsAt
      ? (p.separator.also ?? [])
      : [];
  const otherSeparator =
    clueLeads && p.separator
      ? ` The nodes also differ (${groupWords(p.separator).bad} where it fails), which the clue does not point at.`
      : pointedAlso.length > 0
        ? ` The nodes also differ ${joinValues(pointedAlso.map((a) => describeValues(a.field, a.bad)))} where it fails, which the clue does not point at.`
        : '';
  const clueText = p.clue
    ? ` The ${p.clue.source === 'log' ? 'previous log' : 'termination message'} of ${p.clue.pod}/${p.clue.container} says "${p.clue.text}": ${p.clue.meaning}` +
      (p.clue.pointsAt ? `, which points at the difference in ${p.clue.pointsAt}.` : '.') +
      otherSeparator
    : '';
  return (
    `Every pod here comes from ${templateLabel(p)}, so image, command and configuration are identical; ` +
    `${describeContainers(p.containers)} fails only where the pods land on ${list(p.badNodes)}.${clueText} ` +
    'The kubelet restarts a crashed container after a back-off of 10s, doubling up to 5 minutes, and resets it ' +
    'only after 10 minutes of clean running, so CrashLoopBackOff pods sit idle most of the time and a restart ' +
    'count that grows slowly is not a sign of recovery. Keeping the pods off those nodes with a required node ' +
    'affinity NotIn is a stopgap, safe only if the remaining nodes have room (the plan says): repair, upgrade ' +
    'or drain the nodes, then remove the exclusion.' +
    (blamed
      ? ' With one Unhealthy device, a DeviceTaintRule on just that device (where the cluster serves it) keeps new ' +
        "claims off it while the node's other devices stay in use; a NoSchedule taint moves no pod that already " +
        'holds the device, so its pods must be replaced too.'
      : '')
  );
}

/**
 * The clue in a few words of our own (the clue's text is untrusted and long): what
 * the crash says about the node(s) when no difference of the Node objects shows it.
 * No ": " inside, so a headline cut at its first colon keeps it whole.
 */
function clueWords(clue: CrashClue, nodes: number): string {
  const one = nodes === 1;
  switch (clue.kind) {
    case 'cpu-instructions': {
      const set = namedInstructionSet(clue.text);
      const cpu = one ? "that node's CPU" : 'their CPUs';
      return set
        ? `failing with an illegal instruction (${set}, not supported by ${cpu})`
        : `failing with an illegal instruction (an instruction ${cpu} ${one ? 'lacks' : 'lack'})`;
    }
    case 'exec-format':
      return 'failing with exec format error (a binary built for another CPU architecture)';
    case 'read-only-fs':
      return 'failing on a read-only file system';
    case 'cgroup':
      return 'failing on a cgroup layout or controller it expects';
    case 'syscall':
      return 'failing on a missing or blocked system call';
    case 'open-files':
      return 'failing with too many open files';
    case 'glibc':
      return 'failing on a host glibc older than the binary needs';
    case 'out-of-memory':
      return 'running out of memory';
    case 'gpu-driver':
      return `failing on ${one ? 'its' : 'their'} GPU driver (NVML: kernel module and library out of step, or too old)`;
    case 'device-error':
      return `failing on a hardware fault of ${one ? 'its' : 'their'} device`;
  }
}

/**
 * "with osImage Ubuntu 24.04.1 LTS" for the crashing nodes, "with osImage Ubuntu 22.04.5 LTS"
 * for the healthy ones; every attribute that separates them as well is named with it
 * (`together`), unless a clue points at one (then the others are the explanation's).
 */
function groupWords(s: NodeSeparator, together = true): { bad: string; good: string } {
  if (s.fields.length === 1) {
    const field = s.fields[0] ?? '';
    const all = [{ field, bad: s.bad[0] ?? [], good: s.good[0] ?? [] }, ...(together ? (s.also ?? []) : [])];
    return {
      bad: joinValues(all.map((a) => describeValues(a.field, a.bad))),
      good: joinValues(all.map((a) => describeValues(a.field, a.good))),
    };
  }
  const combo = s.fields.map((f, i) => describeValues(f, s.bad[i] ?? []).replace(/^with /, '')).join(' and ');
  return { bad: `with ${combo}`, good: 'without this combination' };
}

/** "with a, b and c": each part keeps its own "with"/"without", a repeated "with " is dropped. */
function joinValues(parts: readonly string[]): string {
  const trimmed = parts.map((p, i) => (i > 0 ? p.replace(/^with /, '') : p));
  return trimmed.length <= 1
    ? (trimmed[0] ?? '')
    : `${trimmed.slice(0, -1).join(', ')} and ${trimmed[trimmed.length - 1] ?? ''}`;
}

function separatorEvidence(s: NodeSeparator): { fields: string[]; bad: string; good: string } {
  if (s.fields.length === 1) {
    return { fields: s.fields, bad: (s.bad[0] ?? []).join(', '), good: (s.good[0] ?? []).join(', ') };
  }
  return {
    fields: s.fields,
    bad: s.bad.map((v) => v.join(', ')).join(' + '),
    good: 'any other combination',
  };
}

function list(names: readonly string[]): string {
  if (names.length <= LISTED) return names.join(', ');
  return `${names.slice(0, LISTED).join(', ')} and ${names.length - LISTED} more`;
}

/** The nodes the rollout has not reached that share what sets the crashing ones apart: the crash follows it there. */
function sharedNote(p: TemplateCrashPicture): string | undefined {
  const sharing = p.sharingNodes;
  if (sharing.length === 0 || !p.separator) return undefined;
  const one = sharing.length === 1;
  return `${list(sharing)} share${one ? 's' : ''} ${attributeWords(p.separator)} with ${list(p.badNodes)} and run${one ? 's' : ''} no pod of this template yet: the pods will crash there too once the rollout reaches ${one ? 'it' : 'them'}.`;
}

/**
 * Nodes that share what sets the one crashing node apart and run no pod of the template:
 * a suspicion, not proof (one node always differs in something), so they are named and
 * not excluded.
 */
function suspectNote(p: TemplateCrashPicture): string | undefined {
  const suspects = p.suspectNodes;
  if (suspects.length === 0 || !p.separator) return undefined;
  const one = suspects.length === 1;
  return `${list(suspects)} share${one ? 's' : ''} ${attributeWords(p.separator)} with ${list(p.badNodes)} and run${one ? 's' : ''} no pod of this template yet. One crashing node with that value does not show that it causes the crash (the node itself may be at fault), so ${one ? 'it is a suspect' : 'they are suspects'}, not excluded: should pods fail there as well, the attribute is the cause.`;
}
