import type { CrashClueEvidence, Evidence } from '../../../diagnosis/finding.js';
import { asIs, escapeMrkdwn, inlineCode, joinMrkdwn, mrkdwn, trusted, type Mrkdwn } from './mrkdwn.js';
import { deviceVerdictWords } from '../../../diagnosis/crash/device-health.js';
import { codeSections, proseSections, table, type Block } from './text.js';
import { clip, firstSentence } from '../../use-cases/plan-text.js';

export { clip, firstSentence } from '../../use-cases/plan-text.js';

/**
 * Evidence in two sizes: `evidenceLine` is one decisive line for the result message
 * (the blocking resource and who holds it, the fenceposts, the bad node and what
 * differs, the log clue); `evidenceBlocks` is the whole of it for the thread report,
 * tables with every row and every cell whole, split over sections when long.
 */

/** The log clue the crash engine attaches to node-diff evidence: the line that names the cause. */
export function clueOf(evidence: Evidence): CrashClueEvidence | undefined {
  return evidence.type === 'node-diff' && evidence.clue?.text.trim() ? evidence.clue : undefined;
}

/** Words that make a log line the likely cause, strongest first. */
const DECISIVE = [
  /\b(SIGILL|SIGSEGV|SIGBUS|SIGABRT|illegal instruction|segmentation fault|exec format error)\b/i,
  /\b(panic|fatal|FATAL|Traceback|Exception|OOM|out of memory)\b/,
  /\b(error|ERROR|failed|FAILED|refused|denied|not found|no such file)\b/,
];

/** The log line that most likely says why it crashed: the first matching the strongest pattern. */
export function decisiveLogLine(tail: string): string | undefined {
  const lines = tail
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  for (const pattern of DECISIVE) {
    const hit = lines.find((l) => pattern.test(l));
    if (hit) return hit;
  }
  return lines.at(-1);
}

/** "a, b, c and 2 more" from whole items, as many as `max`. */
function list(items: readonly string[], max: number): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

function strategyValue(x: { value: number; raw: string | number; source?: string } | null): string {
  if (!x) return 'n/a';
  return String(x.raw) === String(x.value) ? String(x.value) : `${String(x.raw)} = ${x.value}`;
}

/**
 * One decisive line for the result message, or null when this kind of evidence only
 * belongs in the thread report. Cluster text is escaped by the `mrkdwn` template.
 */
export function evidenceLine(evidence: Evidence, options: { clueElsewhere?: boolean } = {}): Mrkdwn | null {
  switch (evidence.type) {
    case 'node-capacity':
      return capacityLine(evidence);
    case 'quota': {
      const rows = evidence.rows
        .slice(0, 2)
        .map(
          (r) =>
            mrkdwn`*${r.resource}* ${r.used} of ${r.hard} used (${r.ours} by this workload), a new pod asks ${r.requested}`,
        );
      return mrkdwn`:scales: *ResourceQuota ${evidence.quota}:* ${asIs(joinMrkdwn(rows, '; '))}`;
    }
    case 'strategy':
      return strategyLine(evidence);
    case 'scheduling': {
      // A plugin error (parsed.aborted) counts no node: its text is the message.
      if (!evidence.parsed || evidence.parsed.aborted)
        return mrkdwn`:calendar: *Scheduler:* ${clip(firstSentence(evidence.message), 200)}`;
      const p = evidence.parsed;
      const reasons = p.reasons.slice(0, 3).map((r) => `${r.count} ${r.reason}`);
      const rest = p.reasons.length > 3 ? `, ${p.reasons.length - 3} more` : '';
      return mrkdwn`:calendar: *Scheduler:* 0/${p.total} nodes available: ${reasons.join(', ')}${rest}`;
    }
    case 'crash-table':
      return crashTableLine(evidence);
    case 'node-diff':
      return nodeDiffLine(evidence, options);
    case 'log': {
      const line = decisiveLogLine(evidence.tail);
      return line
        ? mrkdwn`:scroll: *Log* (${evidence.pod}/${evidence.container}): ${asIs(inlineCode(clip(line, 160)))}`
        : null;
    }
    case 'condition':
      return mrkdwn`:traffic_light: *${evidence.condition}=${evidence.status}*${evidence.reason ? ` (${evidence.reason})` : ''}${evidence.message ? `: ${clip(firstSentence(evidence.message), 160)}` : ''}`;
    case 'note':
      return mrkdwn`:memo: ${clip(firstSentence(evidence.text), 200)}`;
    case 'device-health': {
      const bad = evidence.rows.filter((r) => r.health === 'Unhealthy').slice(0, 2);
      if (bad.length === 0) return mrkdwn`:electric_plug: *Device health:* ${deviceVerdictWords(evidence)}`;
      const parts = bad.map(
        (r) =>
          mrkdwn`${r.driver ? `${r.driver}/${r.pool ?? ''}/${r.device ?? ''}` : (r.resourceID ?? '?')} on *${r.node}* (${r.pod}${r.claim ? `, claim ${r.claim}` : ''})`,
      );
      return mrkdwn`:electric_plug: *Device Unhealthy:* ${asIs(joinMrkdwn(parts, '; '))}`;
    }
    default:
      return null;
  }
}

function capacityLine(evidence: Extract<Evidence, { type: 'node-capacity' }>): Mrkdwn | null {
  const rows = evidence.rows.filter((r) => r.holders.length > 0 || r.free === '0').slice(0, 2);
  if (rows.length === 0) return null;
  const parts = rows.map((r) => {
    const holders = r.holders.map((h) => `${h.pod}${h.ownedByThisDeployment ? ' (ours)' : ''}`);
    const held = holders.length ? mrkdwn`, held by ${list(holders, 2)}` : trusted('');
    return mrkdwn`*${r.resource}* on *${r.node}*: ${r.allocatable} allocatable, ${r.used} in use, ${r.free} free${asIs(held)}`;
  });
  const more =
    evidence.rows.length > rows.length ? ` (${evidence.rows.length} eligible node rows in the thread)` : '';
  return mrkdwn`:lock: ${asIs(joinMrkdwn(parts, '; '))}${more}`;
}

function strategyLine(evidence: Extract<Evidence, { type: 'strategy' }>): Mrkdwn {
  const s = evidence.strategy;
  const perNode = s.per === 'node';
  const at = `${evidence.replicas} ${perNode ? 'node' : 'replica'}${evidence.replicas === 1 ? '' : 's'}`;
  if (s.type !== 'RollingUpdate') return mrkdwn`:gear: *Strategy:* ${s.type} at ${at}`;
  if (s.argo === 'blueGreen')
    return mrkdwn`:gear: *Strategy:* BlueGreen at ${at}: the preview pods start beside the active ones, which stay until promotion`;
  if (s.argo === 'trafficRouted')
    return mrkdwn`:gear: *Strategy:* canary with traffic routing at ${at}: the stable pods all stay until promotion`;
  const surge = s.maxSurge?.value ?? 0;
  const unavailable = s.maxUnavailable?.value ?? 0;
  const why =
    surge > 0 && unavailable === 0
      ? perNode
        ? ": each node's new pod starts beside the old one, which stays until the new one is Ready"
        : ': new pods start first, old pods stay until the new ones are Ready'
      : '';
  return mrkdwn`:gear: *Strategy:* ${s.argo === 'canary' ? 'canary' : 'RollingUpdate'} at ${at}: maxSurge ${strategyValue(s.maxSurge)}, maxUnavailable ${strategyValue(s.maxUnavailable)}${why}`;
}

function crashTableLine(evidence: Extract<Evidence, { type: 'crash-table' }>): Mrkdwn {
  const rows = evidence.rows.slice(0, 4).map((r) => {
    const exit =
      r.lastExitCode === undefined
        ? ''
        : `, exit ${r.lastExitCode}${r.lastReason ? ` (${r.lastReason})` : ''}`;
    return r.crashing > 0
      ? mrkdwn`*${r.node}* ${r.ready}/${r.pods} ready, ${r.restarts} restarts${exit}`
      : mrkdwn`${r.node} ${r.ready}/${r.pods} ready`;
  });
  const more = evidence.rows.length > 4 ? `; ${evidence.rows.length - 4} more node(s)` : '';
  return mrkdwn`:bar_chart: *Pods per node:* ${asIs(joinMrkdwn(rows, '; '))}${more}`;
}

function nodeDiffLine(
  evidence: Extract<Evidence, { type: 'node-diff' }>,
  options: { clueElsewhere?: boolean },
): Mrkdwn | null {
  const diffs = evidence.differences.slice(0, 2).map((d) => mrkdwn`${d.field} ${d.bad} (others: ${d.good})`);
  if (diffs.length === 0) return null;
  const more = evidence.differences.length > 2 ? ` and ${evidence.differences.length - 2} more` : '';
  // The clue leads and points at none of these: they are marked as such (issue 29.5).
  return options.clueElsewhere
    ? mrkdwn`:mag: *Also differs on ${list(evidence.badNodes, 3)} (the clue points at none of it):* ${asIs(joinMrkdwn(diffs, '; '))}${more}`
    : mrkdwn`:mag: *What differs on ${list(evidence.badNodes, 3)}:* ${asIs(joinMrkdwn(diffs, '; '))}${more}`;
}

/** The log clue as one line for the result message. */
export function clueLine(clue: CrashClueEvidence): Mrkdwn {
  const where = clue.pod ? mrkdwn` (${clue.pod}${clue.container ? `/${clue.container}` : ''})` : trusted('');
  const points = clue.pointsAt ? mrkdwn`: ${clip(clue.pointsAt, 120)}` : trusted('');
  return mrkdwn`:scroll: *Log clue*${asIs(where)}: ${asIs(inlineCode(clip(clue.text, 160)))}${asIs(points)}`;
}

/** One evidence item in full, for the thread report: every row, every cell whole. */
export function evidenceBlocks(evidence: Evidence): Block[] {
  switch (evidence.type) {
    case 'scheduling':
      return schedulingBlocks(evidence);
    case 'strategy': {
      const s = evidence.strategy;
      if (s.type === 'Recreate')
        return proseSections(mrkdwn`*Strategy:* Recreate, replicas ${evidence.replicas}`);
      if (s.argo === 'blueGreen' || s.argo === 'trafficRouted')
        return proseSections(
          mrkdwn`*Strategy:* ${s.argo === 'blueGreen' ? 'BlueGreen' : 'canary with traffic routing'} (Argo Rollouts), replicas ${evidence.replicas}: the stable pods all stay until promotion`,
        );
      const v = (x: typeof s.maxSurge): string =>
        x ? `${x.value} (${String(x.raw)}${x.source === 'explicit' ? '' : ', default'})` : 'n/a';
      return proseSections(
        mrkdwn`*Strategy:* ${s.argo === 'canary' ? 'canary (Argo Rollouts)' : 'RollingUpdate'}, replicas ${evidence.replicas}: maxSurge resolves to ${v(s.maxSurge)}, maxUnavailable to ${v(s.maxUnavailable)}`,
      );
    }
    case 'node-capacity':
      return capacityBlocks(evidence);
    case 'quota':
      return codeSections(
        mrkdwn`*ResourceQuota ${evidence.quota}, as its refusal counted it*`,
        table(
          ['resource', 'hard', 'used', 'this workload', 'others', 'new pod asks'],
          evidence.rows.map((r) => [r.resource, r.hard, r.used, r.ours, r.others, r.requested]),
        ),
      );
    case 'crash-table':
      return crashTableBlocks(evidence);
    case 'node-diff':
      return nodeDiffBlocks(evidence);
    case 'condition':
      return proseSections(
        joinMrkdwn(
          [
            mrkdwn`*Condition:* ${evidence.condition}=${evidence.status}`,
            ...(evidence.reason ? [mrkdwn` (${evidence.reason})`] : []),
            ...(evidence.message ? [mrkdwn`: ${evidence.message}`] : []),
          ],
          '',
        ),
      );
    case 'pods':
      return codeSections(
        mrkdwn`*${evidence.title}*`,
        table(
          ['pod', 'node', 'phase', 'detail'],
          evidence.pods.map((p) => [p.name, p.node ?? '', p.phase ?? '', p.detail ?? '']),
        ),
      );
    case 'log':
      return codeSections(mrkdwn`*Previous log of ${evidence.pod}/${evidence.container}*`, evidence.tail);
    case 'note':
      return proseSections(escapeMrkdwn(evidence.text));
    case 'device-health':
      return codeSections(
        mrkdwn`*Device health* (allocatedResourcesStatus): ${deviceVerdictWords(evidence)}`,
        table(
          ['node', 'pod', 'container', 'device', 'claim', 'health'],
          evidence.rows.map((r) => [
            r.node,
            r.pod,
            r.container ?? '',
            r.driver ? `${r.driver}/${r.pool ?? ''}/${r.device ?? ''}` : (r.resourceID ?? ''),
            r.claim ?? '',
            r.health,
          ]),
        ),
      );
    default:
      return [];
  }
}

function schedulingBlocks(evidence: Extract<Evidence, { type: 'scheduling' }>): Block[] {
  if (!evidence.parsed || evidence.parsed.aborted)
    return codeSections(mrkdwn`*Scheduler* (${evidence.pod})`, evidence.message);
  const p = evidence.parsed;
  const rows = p.reasons.map((r) => [String(r.count), r.reason, r.category]);
  const pre = p.preemption
    ? `\npreemption: ${p.preemption.text ?? p.preemption.reasons.map((r) => `${r.count} ${r.reason}`).join(', ')}`
    : '';
  const notes = p.notes?.length ? `\n${p.notes.join('\n')}` : '';
  return codeSections(
    mrkdwn`*Scheduler:* 0/${p.total} nodes available for ${evidence.pod}`,
    `${table(['nodes', 'reason', 'category'], rows)}${pre}${notes}`,
  );
}

function capacityBlocks(evidence: Extract<Evidence, { type: 'node-capacity' }>): Block[] {
  const rows = evidence.rows.map((r) => [
    r.node,
    r.resource,
    r.allocatable,
    r.used,
    r.free,
    r.holders
      .map((h) => {
        const notes = [h.amount, h.ownedByThisDeployment ? 'ours' : ''].filter((n) => n !== '');
        return notes.length ? `${h.pod} (${notes.join(', ')})` : h.pod;
      })
      .join(', '),
  ]);
  return codeSections(
    trusted('*Capacity on eligible nodes*'),
    table(['node', 'resource', 'alloc', 'used', 'free', 'held by'], rows),
  );
}

function crashTableBlocks(evidence: Extract<Evidence, { type: 'crash-table' }>): Block[] {
  const rows = evidence.rows.map((r) => [
    r.node,
    `${r.ready}/${r.pods}`,
    String(r.restarts),
    String(r.crashing),
    r.lastExitCode === undefined ? '' : String(r.lastExitCode),
    r.lastReason ?? '',
  ]);
  const messages = evidence.rows
    .filter((r) => r.lastMessage)
    .map((r) => `${r.node}: ${r.lastMessage ?? ''}`)
    .join('\n');
  return codeSections(
    trusted('*Pods per node*'),
    table(['node', 'ready', 'restarts', 'crashing', 'exit', 'reason'], rows) +
      (messages ? `\n\nlast termination message:\n${messages}` : ''),
  );
}

function nodeDiffBlocks(evidence: Extract<Evidence, { type: 'node-diff' }>): Block[] {
  const rows = evidence.differences.map((d) => [d.field, d.bad, d.good]);
  const clue = clueOf(evidence);
  const blocks = codeSections(
    mrkdwn`*What differs on ${evidence.badNodes.join(', ')}* (good: ${evidence.goodNodes.join(', ')})`,
    table(['field', 'bad node', 'good nodes'], rows),
  );
  if (clue) {
    const where = clue.source ? mrkdwn` from ${clue.source}` : trusted('');
    const points = joinMrkdwn(
      [
        ...(clue.meaning ? [mrkdwn`\n${clue.meaning}`] : []),
        ...(clue.pointsAt ? [mrkdwn`\nPoints at: ${clue.pointsAt}`] : []),
      ],
      '',
    );
    blocks.push(
      ...proseSections(
        mrkdwn`*Log clue*${asIs(where)}${clue.pod ? ` (${clue.pod}${clue.container ? `/${clue.container}` : ''})` : ''}: ${asIs(inlineCode(clue.text))}${asIs(points)}`,
      ),
    );
  }
  return blocks;
}
