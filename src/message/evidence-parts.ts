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
import { columns, type EvidenceWords as Words } from './words/evidence.js';

/** A code part under a title. */
export function codePart(title: Rich, body: string): ContentPart {
  return { kind: 'code', title, body };
}

/** A table part under a title (cells are untrusted, shown literally). */
export function tablePart(title: Rich, header: string[], rows: string[][]): ContentPart {
  return { kind: 'table', title, header, rows };
}

const paragraph = (text: Rich): ContentPart => ({ kind: 'paragraph', text });

export function capacityPart(evidence: Extract<Evidence, { type: 'node-capacity' }>, w: Words): ContentPart {
  return tablePart(
    plain(w.capacityTitle({})),
    columns(w.capacityColumns({})),
    evidence.rows.map((row) => [
      row.node,
      row.resource,
      row.allocatable,
      row.used,
      row.free,
      row.holders
        .map((h) => `${h.pod} (${h.amount}${h.ownedByThisDeployment ? w.oursCell({}) : ''})`)
        .join('; ') || '-',
    ]),
  );
}

/**
 * A multi-line value we did not write under its head, for a block of fixed-width text:
 * its first line after the head, each further line marked `  | `, so that no line of
 * it (a termination message's stack trace, or one made to look like a table row) can
 * pass for a line of the block's own.
 */
function hangingLines(head: string, text: string): string[] {
  const [first = '', ...rest] = cleanText(text).split('\n');
  return [`${head}${first}`, ...rest.map((line) => `  | ${line}`)];
}

function containerWords(c: CrashingContainer, w: Words): string {
  const what =
    c.kind === 'init' ? w.initContainer({}) : c.kind === 'sidecar' ? w.sidecar({}) : w.container({});
  return `${what} ${c.name}${c.injected ? w.injected({}) : ''}`;
}

export function crashTableParts(
  evidence: Extract<Evidence, { type: 'crash-table' }>,
  w: Words,
): ContentPart[] {
  const messages = evidence.rows
    .filter((r) => r.lastMessage)
    .flatMap((r) => hangingLines(`${r.node}: `, r.lastMessage ?? ''));
  return [
    ...(evidence.containers && evidence.containers.length > 0
      ? [
          paragraph(
            say`${strong(w.crashing({}))} ${evidence.containers.map((c) => containerWords(c, w)).join('; ')}`,
          ),
        ]
      : []),
    tablePart(
      plain(w.podsPerNode({})),
      columns(w.crashColumns({})),
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
    ...(messages.length > 0 ? [codePart(plain(w.lastTermination({})), messages.join('\n'))] : []),
    ...evidence.rows.flatMap((row) =>
      row.logTail ? [codePart(plain(w.lastLogLines({ node: row.node })), row.logTail)] : [],
    ),
  ];
}

/** Up to `max` names, then "and N more" (the crash table lists every node). */
export function few(names: readonly string[], w: Words, max = 5): string {
  return names.length <= max
    ? names.join(', ')
    : w.andMore({ shown: names.slice(0, max).join(', '), n: names.length - max });
}

/**
 * What differs between the failing and the healthy nodes, as one block of fixed-width
 * text: the clue the crash engine found goes right under the difference it points at
 * (`^ clue …`), else after the table. Cells are cleaned before they are measured.
 */
export function nodeDiffParts(evidence: Extract<Evidence, { type: 'node-diff' }>, w: Words): ContentPart[] {
  const head = w.diffTitle({ bad: few(evidence.badNodes, w), good: few(evidence.goodNodes, w) });
  const lines: string[] = [];
  const sep = evidence.separator;
  // Every value from the cluster on one line: a break in one would start a line of the block's own.
  const one = (cell: string): string => cleanText(cell, { singleLine: true });
  if (sep) lines.push(w.separatedBy({ fields: one(sep.fields.join(' + ')), bad: one(sep.bad) }));
  const clue = evidence.clue;
  const pointed = clue?.pointsAt !== undefined && evidence.differences.some((d) => d.field === clue.pointsAt);
  const clueLines = clue
    ? [
        (clue.source === 'log' ? w.clueFromLog : w.clueFromMessage)({
          pod: one(clue.pod),
          container: one(clue.container),
          text: one(truncate(clue.text, 160)),
        }),
        ...(clue.meaning ? [`  ${one(clue.meaning)}`] : []),
      ]
    : [];
  if (evidence.differences.length === 0) {
    lines.push(w.noDifference({}), ...clueLines);
    return [codePart(plain(head), lines.join('\n'))];
  }
  const [header = '', ...rows] = table(
    columns(w.diffColumns({})),
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

export function schedulingParts(
  evidence: Extract<Evidence, { type: 'scheduling' }>,
  w: Words,
): ContentPart[] {
  const parts: ContentPart[] = [
    codePart(plain(w.schedulerMessage({ pod: evidence.pod })), hangingLines('', evidence.message).join('\n')),
  ];
  const parsed = evidence.parsed;
  if (!parsed) return [...parts, paragraph(plain(w.notParsed({})))];
  if (parsed.aborted) return [...parts, paragraph(plain(w.pluginAborted({ plugin: parsed.aborted.plugin })))];
  const rows = (reasons: SchedulingReason[]): string[][] =>
    reasons.map((r) => [
      String(r.count),
      r.reason,
      r.resource ? `${r.category} (${r.resource})` : r.category,
    ]);
  parts.push(
    parsed.reasons.length > 0
      ? tablePart(
          plain(w.considered({ total: parsed.total })),
          columns(w.reasonColumns({})),
          rows(parsed.reasons),
        )
      : paragraph(plain(w.considered({ total: parsed.total }))),
  );
  for (const note of parsed.notes ?? []) parts.push(paragraph(plain(w.also({ note }))));
  const p = parsed.preemption;
  if (p?.text !== undefined) parts.push(paragraph(plain(w.preemption({ text: p.text }))));
  else if (p)
    parts.push(
      tablePart(
        plain(w.preemptionTitle({ total: p.total })),
        columns(w.preemptionColumns({})),
        p.reasons.map((r) => [String(r.count), r.reason]),
      ),
    );
  return parts;
}

/** Where a value of the strategy came from, as the evidence says it. */
function sourceWords(v: ResolvedValue, argo: boolean, w: Words): string {
  if (v.source === 'default') return argo ? w.sourceArgoDefault({}) : w.sourceDefault({});
  // Equal to the default; whether someone set it is not recorded (workloads/deployment/deployment-strategy.ts, rule 5).
  return v.source === 'explicit' ? w.sourceExplicit({}) : w.sourceUnknown({});
}

/** How an Argo Rollout's strategy is named in the evidence. */
function argoName(argo: NonNullable<ResolvedStrategy['argo']>, w: Words): string {
  if (argo === 'canary') return w.argoCanary({});
  return argo === 'trafficRouted' ? w.argoTrafficRouted({}) : w.argoBlueGreen({});
}

/** The strategy as resolved, then how the controller reads it: a head line, then the lines under it. */
export function strategyParts(evidence: Extract<Evidence, { type: 'strategy' }>, w: Words): ContentPart[] {
  const s = evidence.strategy;
  const perNode = s.per === 'node';
  const named = { name: s.argo ? argoName(s.argo, w) : s.type, n: evidence.replicas };
  const head = paragraph(
    say`${strong(w.strategy({}))} ${perNode ? w.strategyNodes(named) : w.strategyReplicas(named)}`,
  );
  const under = (lines: string[]): ContentPart[] => [head, { kind: 'code', body: lines.join('\n') }];
  if (s.argo === 'blueGreen' || s.argo === 'trafficRouted')
    return under([
      s.argo === 'blueGreen'
        ? w.previewStarts({ n: s.maxSurge?.value ?? evidence.replicas })
        : w.canaryBeside({ n: evidence.replicas }),
    ]);
  if (s.type === 'Recreate') return under([w.recreateLine({})]);
  if (s.type === 'OnDelete') return under([w.onDeleteLine({})]);
  const value = (label: string, v: ResolvedValue | null): string =>
    v
      ? `${label.padEnd(15)} ${String(v.raw).padEnd(5)} -> ${v.value}  (${sourceWords(v, s.argo !== undefined, w)})`
      : `${label.padEnd(15)} -`;
  const lines = [value('maxSurge', s.maxSurge), value('maxUnavailable', s.maxUnavailable)];
  if (s.maxSurge && s.maxUnavailable && s.maxSurge.value >= 1 && s.maxUnavailable.value === 0) {
    const counts = { surge: s.maxSurge.value, n: evidence.replicas };
    lines.push(perNode ? w.surgeLinePerNode(counts) : w.surgeLine(counts));
  }
  if (!s.argo && [s.maxSurge, s.maxUnavailable].some((v) => typeof v?.raw === 'string'))
    lines.push(w.describeUnresolved({}));
  return under(lines);
}

function truncate(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
