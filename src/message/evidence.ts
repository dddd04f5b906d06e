/**
 * Evidence in two sizes, platform-free: `evidenceLine` is one decisive line for the
 * result message (the blocking resource and who holds it, the fenceposts, the bad node
 * and what differs, the log clue); `evidenceParts` is the whole of it for the thread
 * report, tables with every row and every cell whole. Cluster text is only ever
 * interpolated into `say` or put in code and table bodies: each adapter escapes it.
 */
import type { CrashClueEvidence, Evidence } from '../diagnosis/finding.js';
import { deviceVerdictWords } from '../diagnosis/crash/device-health.js';
import type { ContentPart, Rich } from './model.js';
import { code, icon, join, multiline, plain, say, strong } from './rich.js';
import { clip, firstSentence } from '../text/sentences.js';
import {
  capacityPart,
  codePart,
  crashTableParts,
  nodeDiffParts,
  schedulingParts,
  strategyParts,
  tablePart,
} from './evidence-parts.js';

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
function decisiveLogLine(tail: string): string | undefined {
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

/** What a piece of evidence says: its decisive line for the result message, and all of it. */
interface EvidenceView {
  /** One decisive line for the result message, or null when it only belongs in the thread report. */
  line: Rich | null;
  /** The whole of it, for the thread report and the command line: every row, every cell whole. */
  parts: ContentPart[];
}

/**
 * The one place that says what each Evidence variant shows, for every renderer: Slack
 * and Teams (result.ts) and the command line (src/report/text.ts, through the terminal
 * renderer src/report/terminal.ts).
 */
function evidenceView(evidence: Evidence, options: { clueElsewhere?: boolean } = {}): EvidenceView {
  switch (evidence.type) {
    case 'node-capacity':
      return { line: capacityLine(evidence), parts: [capacityPart(evidence)] };
    case 'quota':
      return { line: quotaLine(evidence), parts: [quotaPart(evidence)] };
    case 'strategy':
      return { line: strategyLine(evidence), parts: strategyParts(evidence) };
    case 'scheduling':
      return { line: schedulingLine(evidence), parts: schedulingParts(evidence) };
    case 'crash-table':
      return { line: crashTableLine(evidence), parts: crashTableParts(evidence) };
    case 'node-diff':
      return { line: nodeDiffLine(evidence, options), parts: nodeDiffParts(evidence) };
    case 'log': {
      const line = decisiveLogLine(evidence.tail);
      return {
        line: line
          ? say`${icon('log')} ${strong('Log')} (${evidence.pod}/${evidence.container}): ${code(clip(line, 160))}`
          : null,
        parts: [codePart(plain(`Previous log of ${evidence.pod}/${evidence.container}`), evidence.tail)],
      };
    }
    case 'condition': {
      const reason = evidence.reason ? ` (${evidence.reason})` : '';
      return {
        line: say`${icon('progress')} ${strong(`${evidence.condition}=${evidence.status}`)}${reason}${evidence.message ? `: ${clip(firstSentence(evidence.message), 160)}` : ''}`,
        parts: prose(
          say`${strong('Condition')} ${evidence.condition}=${evidence.status}${reason}${evidence.message ? `: ${evidence.message}` : ''}`,
        ),
      };
    }
    case 'pods':
      return {
        line: null,
        parts: [
          tablePart(
            plain(evidence.title),
            ['pod', 'node', 'phase', 'detail'],
            evidence.pods.map((p) => [p.name, p.node ?? '-', p.phase ?? '-', p.detail ?? '']),
          ),
        ],
      };
    case 'note':
      return {
        line: say`${icon('note')} ${clip(firstSentence(evidence.text), 200)}`,
        parts: prose(say`Note: ${multiline(evidence.text)}`),
      };
    case 'device-health':
      return { line: deviceHealthLine(evidence), parts: [deviceHealthPart(evidence)] };
  }
}

/** One decisive line for the result message, or null when this evidence only belongs in the thread report. */
export function evidenceLine(evidence: Evidence, options: { clueElsewhere?: boolean } = {}): Rich | null {
  return evidenceView(evidence, options).line;
}

/** One evidence item in full, for the thread report and the command line. */
export function evidenceParts(evidence: Evidence): ContentPart[] {
  return evidenceView(evidence).parts;
}

const prose = (text: Rich): ContentPart[] => [{ kind: 'paragraph', text }];

function quotaLine(evidence: Extract<Evidence, { type: 'quota' }>): Rich {
  const rows = evidence.rows
    .slice(0, 2)
    .map(
      (r) =>
        say`${strong(r.resource)} ${r.used} of ${r.hard} used (${r.ours} by this workload), a new pod asks ${r.requested}`,
    );
  return say`${icon('balance')} ${strong(`ResourceQuota ${evidence.quota}:`)} ${join(rows, '; ')}`;
}

function quotaPart(evidence: Extract<Evidence, { type: 'quota' }>): ContentPart {
  return tablePart(
    plain(`ResourceQuota ${evidence.quota}, as its refusal counted it`),
    ['resource', 'hard', 'used', 'this workload', 'others', 'new pod asks'],
    evidence.rows.map((r) => [r.resource, r.hard, r.used, r.ours, r.others, r.requested]),
  );
}

function schedulingLine(evidence: Extract<Evidence, { type: 'scheduling' }>): Rich {
  // A plugin error (parsed.aborted) counts no node: its text is the message.
  if (!evidence.parsed || evidence.parsed.aborted)
    return say`${icon('calendar')} ${strong('Scheduler:')} ${clip(firstSentence(evidence.message), 200)}`;
  const p = evidence.parsed;
  const reasons = p.reasons.slice(0, 3).map((r) => `${r.count} ${r.reason}`);
  const rest = p.reasons.length > 3 ? `, ${p.reasons.length - 3} more` : '';
  return say`${icon('calendar')} ${strong('Scheduler:')} 0/${p.total} nodes available: ${reasons.join(', ')}${rest}`;
}

function deviceHealthLine(evidence: Extract<Evidence, { type: 'device-health' }>): Rich {
  const bad = evidence.rows.filter((r) => r.health === 'Unhealthy').slice(0, 2);
  if (bad.length === 0)
    return say`${icon('connection')} ${strong('Device health:')} ${deviceVerdictWords(evidence)}`;
  const parts = bad.map(
    (r) =>
      say`${r.driver ? `${r.driver}/${r.pool ?? ''}/${r.device ?? ''}` : (r.resourceID ?? '?')} on ${strong(r.node)} (${r.pod}${r.claim ? `, claim ${r.claim}` : ''})`,
  );
  return say`${icon('connection')} ${strong('Device Unhealthy:')} ${join(parts, '; ')}`;
}

function deviceHealthPart(evidence: Extract<Evidence, { type: 'device-health' }>): ContentPart {
  return tablePart(
    plain(`Device health (allocatedResourcesStatus): ${deviceVerdictWords(evidence)}`),
    ['node', 'pod', 'container', 'device', 'claim', 'health'],
    evidence.rows.map((r) => [
      r.node,
      r.pod,
      r.container ?? '-',
      r.driver ? `${r.driver}/${r.pool ?? ''}/${r.device ?? ''}` : (r.resourceID ?? '-'),
      r.claim ?? '-',
      r.health,
    ]),
  );
}

function capacityLine(evidence: Extract<Evidence, { type: 'node-capacity' }>): Rich | null {
  const rows = evidence.rows.filter((r) => r.holders.length > 0 || r.free === '0').slice(0, 2);
  if (rows.length === 0) return null;
  const parts = rows.map((r) => {
    const holders = r.holders.map((h) => `${h.pod}${h.ownedByThisDeployment ? ' (ours)' : ''}`);
    const held = holders.length ? say`, held by ${list(holders, 2)}` : say``;
    return say`${strong(r.resource)} on ${strong(r.node)}: ${r.allocatable} allocatable, ${r.used} in use, ${r.free} free${held}`;
  });
  const more =
    evidence.rows.length > rows.length ? ` (${evidence.rows.length} eligible node rows in the thread)` : '';
  return say`${icon('locked')} ${join(parts, '; ')}${more}`;
}

function strategyLine(evidence: Extract<Evidence, { type: 'strategy' }>): Rich {
  const s = evidence.strategy;
  const perNode = s.per === 'node';
  const at = `${evidence.replicas} ${perNode ? 'node' : 'replica'}${evidence.replicas === 1 ? '' : 's'}`;
  const head = say`${icon('working')} ${strong('Strategy:')}`;
  if (s.type !== 'RollingUpdate') return say`${head} ${s.type} at ${at}`;
  if (s.argo === 'blueGreen')
    return say`${head} BlueGreen at ${at}: the preview pods start beside the active ones, which stay until promotion`;
  if (s.argo === 'trafficRouted')
    return say`${head} canary with traffic routing at ${at}: the stable pods all stay until promotion`;
  const surge = s.maxSurge?.value ?? 0;
  const unavailable = s.maxUnavailable?.value ?? 0;
  const why =
    surge > 0 && unavailable === 0
      ? perNode
        ? ": each node's new pod starts beside the old one, which stays until the new one is Ready"
        : ': new pods start first, old pods stay until the new ones are Ready'
      : '';
  return say`${head} ${s.argo === 'canary' ? 'canary' : 'RollingUpdate'} at ${at}: maxSurge ${strategyValue(s.maxSurge)}, maxUnavailable ${strategyValue(s.maxUnavailable)}${why}`;
}

function crashTableLine(evidence: Extract<Evidence, { type: 'crash-table' }>): Rich {
  const rows = evidence.rows.slice(0, 4).map((r) => {
    const exit =
      r.lastExitCode === undefined
        ? ''
        : `, exit ${r.lastExitCode}${r.lastReason ? ` (${r.lastReason})` : ''}`;
    return r.crashing > 0
      ? say`${strong(r.node)} ${r.ready}/${r.pods} ready, ${r.restarts} restarts${exit}`
      : say`${r.node} ${r.ready}/${r.pods} ready`;
  });
  const more = evidence.rows.length > 4 ? `; ${evidence.rows.length - 4} more node(s)` : '';
  return say`${icon('chart')} ${strong('Pods per node:')} ${join(rows, '; ')}${more}`;
}

function nodeDiffLine(
  evidence: Extract<Evidence, { type: 'node-diff' }>,
  options: { clueElsewhere?: boolean },
): Rich | null {
  const diffs = evidence.differences.slice(0, 2).map((d) => say`${d.field} ${d.bad} (others: ${d.good})`);
  if (diffs.length === 0) return null;
  const more = evidence.differences.length > 2 ? ` and ${evidence.differences.length - 2} more` : '';
  // The clue leads and points at none of these: they are marked as such.
  const head = options.clueElsewhere
    ? `Also differs on ${list(evidence.badNodes, 3)} (the clue points at none of it):`
    : `What differs on ${list(evidence.badNodes, 3)}:`;
  return say`${icon('inspect')} ${strong(head)} ${join(diffs, '; ')}${more}`;
}

/** The log clue as one line for the result message. */
export function clueLine(clue: CrashClueEvidence): Rich {
  const where = clue.pod ? say` (${clue.pod}${clue.container ? `/${clue.container}` : ''})` : say``;
  const points = clue.pointsAt ? say`: ${clip(clue.pointsAt, 120)}` : say``;
  return say`${icon('log')} ${strong('Log clue')}${where}: ${code(clip(clue.text, 160))}${points}`;
}

export { table } from './text-table.js';
