/** Text rendering of each Evidence variant (src/diagnosis/finding.ts). */
import type { ResolvedStrategy, ResolvedValue } from '../diagnosis/resolved-strategy.js';
import type { CrashingContainer, Evidence } from '../diagnosis/finding.js';
import type { SchedulingReason } from '../diagnosis/scheduling/scheduling-message.js';
import { deviceVerdictWords } from '../diagnosis/crash/device-health.js';
import { indent, table, type Style } from './format.js';

/** Lines for one piece of evidence, not indented. */
export function renderEvidence(evidence: Evidence, style: Style): string[] {
  switch (evidence.type) {
    case 'scheduling':
      return scheduling(evidence, style);
    case 'strategy':
      return strategy(evidence, style);
    case 'node-capacity':
      return [
        style.bold('Capacity on the nodes the pod may use:'),
        ...indent(
          table(
            ['NODE', 'RESOURCE', 'ALLOCATABLE', 'USED', 'FREE', 'HELD BY'],
            evidence.rows.map((row) => [
              row.node,
              row.resource,
              row.allocatable,
              row.used,
              row.free,
              row.holders
                .map((h) => `${h.pod} (${h.amount}${h.ownedByThisDeployment ? ', ours' : ''})`)
                .join('; ') || '-',
            ]),
          ),
          2,
        ),
      ];
    case 'quota':
      return [
        style.bold(`ResourceQuota ${evidence.quota}, as its refusal counted it:`),
        ...indent(
          table(
            ['RESOURCE', 'HARD', 'USED', 'THIS WORKLOAD', 'OTHERS', 'NEW POD ASKS'],
            evidence.rows.map((r) => [r.resource, r.hard, r.used, r.ours, r.others, r.requested]),
          ),
          2,
        ),
      ];
    case 'crash-table':
      return [
        ...(evidence.containers && evidence.containers.length > 0
          ? [`${style.bold('Crashing:')} ${evidence.containers.map(containerWords).join('; ')}`]
          : []),
        style.bold('Pods per node:'),
        ...indent(
          table(
            ['NODE', 'PODS', 'READY', 'CRASHING', 'RESTARTS', 'LAST EXIT', 'REASON', 'MESSAGE'],
            evidence.rows.map((row) => [
              row.node,
              String(row.pods),
              String(row.ready),
              String(row.crashing),
              String(row.restarts),
              row.lastExitCode === undefined ? '-' : String(row.lastExitCode),
              row.lastReason ?? '-',
              truncate(row.lastMessage ?? '-', 60),
            ]),
          ),
          2,
        ),
        ...evidence.rows.flatMap((row) =>
          row.logTail
            ? [`  last log lines on ${row.node}:`, ...indent(row.logTail.trimEnd().split('\n'), 4)]
            : [],
        ),
      ];
    case 'node-diff':
      return nodeDiff(evidence, style);
    case 'condition':
      return [
        `${style.bold('Condition')} ${evidence.condition}=${evidence.status}` +
          (evidence.reason ? ` (${evidence.reason})` : '') +
          (evidence.message ? `: ${evidence.message}` : ''),
      ];
    case 'pods':
      return [
        style.bold(`${evidence.title}:`),
        ...indent(
          table(
            ['POD', 'NODE', 'PHASE', 'DETAIL'],
            evidence.pods.map((p) => [p.name, p.node ?? '-', p.phase ?? '-', p.detail ?? '']),
          ),
          2,
        ),
      ];
    case 'log':
      return [
        style.bold(`Previous log of ${evidence.pod}/${evidence.container}:`),
        ...indent(evidence.tail.trimEnd().split('\n'), 2),
      ];
    case 'note':
      return [`Note: ${evidence.text}`];
    case 'device-health':
      return [
        style.bold(`Device health (allocatedResourcesStatus): ${deviceVerdictWords(evidence)}`),
        ...indent(
          table(
            ['NODE', 'POD', 'CONTAINER', 'DEVICE', 'CLAIM', 'HEALTH'],
            evidence.rows.map((r) => [
              r.node,
              r.pod,
              r.container ?? '-',
              r.driver ? `${r.driver}/${r.pool ?? ''}/${r.device ?? ''}` : (r.resourceID ?? '-'),
              r.claim ?? '-',
              r.health,
            ]),
          ),
          2,
        ),
      ];
  }
}

/** Up to five names, then "and N more" (the crash table lists every node). */
function few(names: readonly string[]): string {
  return names.length <= 5
    ? names.join(', ')
    : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

function containerWords(c: CrashingContainer): string {
  const what =
    c.kind === 'init'
      ? 'init container'
      : c.kind === 'sidecar'
        ? 'sidecar (restartable init container)'
        : 'container';
  return `${what} ${c.name}${c.injected ? ' (injected at admission, not in the pod template)' : ''}`;
}

function nodeDiff(evidence: Extract<Evidence, { type: 'node-diff' }>, style: Style): string[] {
  const lines = [
    style.bold(
      `What differs between the failing node(s) ${few(evidence.badNodes)} and the healthy ${few(evidence.goodNodes)}:`,
    ),
  ];
  const sep = evidence.separator;
  if (sep)
    lines.push(
      `  separated by ${sep.fields.join(' + ')}: ${sep.bad} on every failing node, never on a healthy one`,
    );
  const clue = evidence.clue;
  const pointed = clue?.pointsAt !== undefined && evidence.differences.some((d) => d.field === clue.pointsAt);
  const clueLines = clue
    ? [
        `clue (${clue.source === 'log' ? 'previous log' : 'termination message'} of ${clue.pod}/${clue.container}): ${truncate(clue.text, 160)}`,
        ...(clue.meaning ? [`  ${clue.meaning}`] : []),
      ]
    : [];
  if (evidence.differences.length === 0) {
    lines.push(
      ...indent(['no difference found in labels, node info, conditions or taints', ...clueLines], 2),
    );
    return lines;
  }
  const rows = table(
    ['FIELD', 'FAILING', 'HEALTHY'],
    evidence.differences.map((d) => [d.field, d.bad, d.good]),
  );
  const [header, ...body] = rows;
  const out: string[] = header === undefined ? [] : [header];
  evidence.differences.forEach((d, i) => {
    const row = body[i];
    if (row !== undefined) out.push(row);
    // The clue goes right under the difference it points at.
    if (pointed && d.field === clue?.pointsAt)
      out.push(
        ...indent(
          clueLines.map((l, j) => (j === 0 ? `^ ${l}` : `  ${l}`)),
          2,
        ),
      );
  });
  if (clue && !pointed) out.push(...clueLines);
  lines.push(...indent(out, 2));
  return lines;
}

function scheduling(evidence: Extract<Evidence, { type: 'scheduling' }>, style: Style): string[] {
  const lines = [style.bold(`Scheduler message for ${evidence.pod}:`), `  ${evidence.message}`];
  const parsed = evidence.parsed;
  if (!parsed) return [...lines, '  (the message could not be parsed)'];
  if (parsed.aborted)
    return [
      ...lines,
      `  the scheduler stopped with an error from its ${parsed.aborted.plugin} plugin before judging any node`,
    ];
  const rows = (reasons: SchedulingReason[]): string[][] =>
    reasons.map((r) => [
      String(r.count),
      r.reason,
      r.resource ? `${r.category} (${r.resource})` : r.category,
    ]);
  lines.push(`  ${parsed.total} node(s) considered, none available:`);
  if (parsed.reasons.length > 0)
    lines.push(...indent(table(['NODES', 'REASON', 'CATEGORY'], rows(parsed.reasons)), 4));
  for (const note of parsed.notes ?? []) lines.push(`    also: ${note}`);
  const p = parsed.preemption;
  if (p?.text !== undefined) lines.push(`  preemption: ${p.text}`);
  else if (p) {
    lines.push(`  preemption (evicting lower-priority pods) would not help on ${p.total} node(s):`);
    lines.push(
      ...indent(
        table(
          ['NODES', 'REASON'],
          p.reasons.map((r) => [String(r.count), r.reason]),
        ),
        4,
      ),
    );
  }
  return lines;
}

const SOURCE_WORDS: Record<ResolvedValue['source'], string> = {
  default: 'Kubernetes default, not set in the manifest',
  explicit: 'set explicitly',
  // Equal to the default; whether someone set it is not recorded (workloads/deployment/deployment-strategy.ts, rule 5).
  unknown: 'default value',
};

/** How an Argo Rollout's strategy is named in the evidence. */
const ARGO_STRATEGY: Record<NonNullable<ResolvedStrategy['argo']>, string> = {
  canary: 'Canary (Argo Rollouts)',
  trafficRouted: 'Canary with traffic routing (Argo Rollouts)',
  blueGreen: 'BlueGreen (Argo Rollouts)',
};

function strategy(evidence: Extract<Evidence, { type: 'strategy' }>, style: Style): string[] {
  const s = evidence.strategy;
  const perNode = s.per === 'node';
  const head = `${style.bold('Strategy:')} ${s.argo ? ARGO_STRATEGY[s.argo] : s.type}, ${perNode ? 'nodes' : 'replicas'} ${evidence.replicas}`;
  if (s.argo === 'blueGreen' || s.argo === 'trafficRouted') {
    return [
      head,
      s.argo === 'blueGreen'
        ? `  the preview ReplicaSet starts ${s.maxSurge?.value ?? evidence.replicas} pod(s) beside the active ones, which all stay until promotion`
        : `  the canary's pods start beside the stable ReplicaSet, which keeps all ${evidence.replicas} pod(s) until promotion (maxSurge and maxUnavailable do not apply)`,
    ];
  }
  if (s.type === 'Recreate') return [head, '  old pods are stopped before new ones start'];
  if (s.type === 'OnDelete') return [head, '  a pod is replaced only when someone deletes it'];
  const value = (label: string, v: ResolvedValue | null): string =>
    v
      ? `  ${label.padEnd(15)} ${String(v.raw).padEnd(5)} -> ${v.value}  (${s.argo && v.source === 'default' ? 'Argo Rollouts default, not set in the manifest' : SOURCE_WORDS[v.source]})`
      : `  ${label.padEnd(15)} -`;
  const lines = [head, value('maxSurge', s.maxSurge), value('maxUnavailable', s.maxUnavailable)];
  if (s.maxSurge && s.maxUnavailable && s.maxSurge.value >= 1 && s.maxUnavailable.value === 0) {
    lines.push(
      perNode
        ? `  so the controller starts the new pod beside the old one on up to ${s.maxSurge.value} node(s) at a time and deletes the old one only once the new one is available ` +
            `(both round percentages up, against ${evidence.replicas} node(s))`
        : `  so the controller starts ${s.maxSurge.value} new pod(s) before stopping any old one ` +
            `(maxSurge rounds percentages up, maxUnavailable rounds down, against ${evidence.replicas} replica(s))`,
    );
  }
  if (!s.argo && [s.maxSurge, s.maxUnavailable].some((v) => typeof v?.raw === 'string')) {
    lines.push(
      '  (`kubectl describe` prints the percentages unresolved; the numbers after -> are what the controller uses)',
    );
  }
  return lines;
}

function truncate(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
