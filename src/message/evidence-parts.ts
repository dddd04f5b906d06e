/**
 * The whole of a piece of evidence as parts of the port's message model, for the thread
 * report (Slack, Teams) and the command line (src/report/terminal.ts): every row, every
 * cell whole but a crash's last message, cut at 60 characters in its table (the whole
 * message follows it).
 * Tables name their columns in words; each renderer sets them its own way (the terminal
 * in capitals, as kubectl does). Cluster text is only ever in a table cell, a code body
 * or a text span: each renderer escapes it. The switch over the variants is evidence.ts.
 */
import type { ResolvedStrategy, ResolvedValue } from '../diagnosis/resolved-strategy.js';
import type { CrashingContainer, Evidence } from '../diagnosis/finding.js';
import type { SchedulingReason } from '../diagnosis/scheduling/scheduling-message.js';
import type { ContentPart, Rich } from './model.js';
import { plain, say, strong } from './rich.js';
import { cleanText } from '../text/clean.js';
import { table } from './text-table.js';

/** A code part under a title. */
export function codePart(title: Rich, body: string): ContentPart {
  return { kind: 'code', title, body };
}

/** A table part under a title (cells are untrusted, shown literally). */
export function tablePart(title: Rich, header: string[], rows: string[][]): ContentPart {
  return { kind: 'table', title, header, rows };
}

const paragraph = (text: Rich): ContentPart => ({ kind: 'paragraph', text });

export function capacityPart(evidence: Extract<Evidence, { type: 'node-capacity' }>): ContentPart {
  return tablePart(
    plain('Capacity on the nodes the pod may use'),
    ['node', 'resource', 'allocatable', 'used', 'free', 'held by'],
    evidence.rows.map((row) => [
      row.node,
      row.resource,
      row.allocatable,
      row.used,
      row.free,
      row.holders.map((h) => `${h.pod} (${h.amount}${h.ownedByThisDeployment ? ', ours' : ''})`).join('; ') ||
        '-',
    ]),
  );
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

export function crashTableParts(evidence: Extract<Evidence, { type: 'crash-table' }>): ContentPart[] {
  const messages = evidence.rows.filter((r) => r.lastMessage).map((r) => `${r.node}: ${r.lastMessage ?? ''}`);
  return [
    ...(evidence.containers && evidence.containers.length > 0
      ? [paragraph(say`${strong('Crashing:')} ${evidence.containers.map(containerWords).join('; ')}`)]
      : []),
    tablePart(
      plain('Pods per node'),
      ['node', 'pods', 'ready', 'crashing', 'restarts', 'last exit', 'reason', 'message'],
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
    // The messages whole: a termination message is often the cause, and the table cuts it.
    ...(messages.length > 0 ? [codePart(plain('last termination message'), messages.join('\n'))] : []),
    ...evidence.rows.flatMap((row) =>
      row.logTail ? [codePart(plain(`last log lines on ${row.node}`), row.logTail)] : [],
    ),
  ];
}

/** Up to five names, then "and N more" (the crash table lists every node). */
function few(names: readonly string[]): string {
  return names.length <= 5
    ? names.join(', ')
    : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

/**
 * What differs between the failing and the healthy nodes, as one block of fixed-width
 * text: the clue the crash engine found goes right under the difference it points at
 * (`^ clue …`), else after the table. Cells are cleaned before they are measured.
 */
export function nodeDiffParts(evidence: Extract<Evidence, { type: 'node-diff' }>): ContentPart[] {
  const head = `What differs between the failing node(s) ${few(evidence.badNodes)} and the healthy ${few(evidence.goodNodes)}`;
  const lines: string[] = [];
  const sep = evidence.separator;
  if (sep)
    lines.push(
      `separated by ${sep.fields.join(' + ')}: ${sep.bad} on every failing node, never on a healthy one`,
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
    lines.push('no difference found in labels, node info, conditions or taints', ...clueLines);
    return [codePart(plain(head), lines.join('\n'))];
  }
  const one = (cell: string): string => cleanText(cell, { singleLine: true });
  const [header = '', ...rows] = table(
    ['FIELD', 'FAILING', 'HEALTHY'],
    evidence.differences.map((d) => [one(d.field), one(d.bad), one(d.good)]),
  ).split('\n');
  lines.push(header);
  evidence.differences.forEach((d, i) => {
    lines.push(rows[i] ?? '');
    // The clue goes right under the difference it points at.
    if (pointed && d.field === clue?.pointsAt)
      lines.push(...clueLines.map((l, j) => `  ${j === 0 ? '^ ' : '  '}${l}`));
  });
  if (clue && !pointed) lines.push(...clueLines);
  return [codePart(plain(head), lines.join('\n'))];
}

export function schedulingParts(evidence: Extract<Evidence, { type: 'scheduling' }>): ContentPart[] {
  const parts: ContentPart[] = [codePart(plain(`Scheduler message for ${evidence.pod}`), evidence.message)];
  const parsed = evidence.parsed;
  if (!parsed) return [...parts, paragraph(plain('(the message could not be parsed)'))];
  if (parsed.aborted)
    return [
      ...parts,
      paragraph(
        plain(
          `the scheduler stopped with an error from its ${parsed.aborted.plugin} plugin before judging any node`,
        ),
      ),
    ];
  const rows = (reasons: SchedulingReason[]): string[][] =>
    reasons.map((r) => [
      String(r.count),
      r.reason,
      r.resource ? `${r.category} (${r.resource})` : r.category,
    ]);
  parts.push(
    parsed.reasons.length > 0
      ? tablePart(
          plain(`${parsed.total} node(s) considered, none available`),
          ['nodes', 'reason', 'category'],
          rows(parsed.reasons),
        )
      : paragraph(plain(`${parsed.total} node(s) considered, none available`)),
  );
  for (const note of parsed.notes ?? []) parts.push(paragraph(plain(`also: ${note}`)));
  const p = parsed.preemption;
  if (p?.text !== undefined) parts.push(paragraph(plain(`preemption: ${p.text}`)));
  else if (p)
    parts.push(
      tablePart(
        plain(`preemption (evicting lower-priority pods) would not help on ${p.total} node(s)`),
        ['nodes', 'reason'],
        p.reasons.map((r) => [String(r.count), r.reason]),
      ),
    );
  return parts;
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

/** The strategy as resolved, then how the controller reads it: a head line, then the lines under it. */
export function strategyParts(evidence: Extract<Evidence, { type: 'strategy' }>): ContentPart[] {
  const s = evidence.strategy;
  const perNode = s.per === 'node';
  const head = paragraph(
    say`${strong('Strategy:')} ${s.argo ? ARGO_STRATEGY[s.argo] : s.type}, ${perNode ? 'nodes' : 'replicas'} ${evidence.replicas}`,
  );
  const under = (lines: string[]): ContentPart[] => [head, { kind: 'code', body: lines.join('\n') }];
  if (s.argo === 'blueGreen' || s.argo === 'trafficRouted')
    return under([
      s.argo === 'blueGreen'
        ? `the preview ReplicaSet starts ${s.maxSurge?.value ?? evidence.replicas} pod(s) beside the active ones, which all stay until promotion`
        : `the canary's pods start beside the stable ReplicaSet, which keeps all ${evidence.replicas} pod(s) until promotion (maxSurge and maxUnavailable do not apply)`,
    ]);
  if (s.type === 'Recreate') return under(['old pods are stopped before new ones start']);
  if (s.type === 'OnDelete') return under(['a pod is replaced only when someone deletes it']);
  const value = (label: string, v: ResolvedValue | null): string =>
    v
      ? `${label.padEnd(15)} ${String(v.raw).padEnd(5)} -> ${v.value}  (${s.argo && v.source === 'default' ? 'Argo Rollouts default, not set in the manifest' : SOURCE_WORDS[v.source]})`
      : `${label.padEnd(15)} -`;
  const lines = [value('maxSurge', s.maxSurge), value('maxUnavailable', s.maxUnavailable)];
  if (s.maxSurge && s.maxUnavailable && s.maxSurge.value >= 1 && s.maxUnavailable.value === 0) {
    lines.push(
      perNode
        ? `so the controller starts the new pod beside the old one on up to ${s.maxSurge.value} node(s) at a time and deletes the old one only once the new one is available ` +
            `(both round percentages up, against ${evidence.replicas} node(s))`
        : `so the controller starts ${s.maxSurge.value} new pod(s) before stopping any old one ` +
            `(maxSurge rounds percentages up, maxUnavailable rounds down, against ${evidence.replicas} replica(s))`,
    );
  }
  if (!s.argo && [s.maxSurge, s.maxUnavailable].some((v) => typeof v?.raw === 'string')) {
    lines.push(
      '(`kubectl describe` prints the percentages unresolved; the numbers after -> are what the controller uses)',
    );
  }
  return under(lines);
}

function truncate(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
