/**
 * Evidence in two sizes, platform-free: `evidenceLine` is one decisive line for the
 * result message (the blocking resource and who holds it, the fenceposts, the bad node
 * and what differs, the log clue); `evidenceParts` is the whole of it for the thread
 * report, tables with every row and every cell whole. Cluster text is only ever
 * interpolated into `say` or put in code and table bodies: each adapter escapes it.
 */
import type { CrashClueEvidence, Evidence } from '../diagnosis/finding.js';
import { wordsIn } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import { EVIDENCE_WORDS, columns, type EvidenceWords as Words } from './words/evidence.js';
import { deviceVerdictWords } from '../diagnosis/crash/device-health.js';
import type { ContentPart, Rich } from './model.js';
import { code, icon, join, plain, say, strong } from './rich.js';
import { clip, firstSentence } from '../text/sentences.js';
import { sentenceIn } from './sentences.js';
import {
  capacityPart,
  codePart,
  crashTableParts,
  few,
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
function evidenceView(
  evidence: Evidence,
  w: Words,
  options: { clueElsewhere?: boolean; lang?: Lang } = {},
): EvidenceView {
  const said = (text: string): string => sentenceIn(text, options.lang ?? 'en');
  switch (evidence.type) {
    case 'node-capacity':
      return { line: capacityLine(evidence, w), parts: [capacityPart(evidence, w)] };
    case 'quota':
      return { line: quotaLine(evidence, w), parts: [quotaPart(evidence, w)] };
    case 'strategy':
      return { line: strategyLine(evidence, w), parts: strategyParts(evidence, w) };
    case 'scheduling':
      return { line: schedulingLine(evidence, w), parts: schedulingParts(evidence, w) };
    case 'crash-table':
      return { line: crashTableLine(evidence, w), parts: crashTableParts(evidence, w) };
    case 'node-diff':
      return { line: nodeDiffLine(evidence, w, options), parts: nodeDiffParts(evidence, w) };
    case 'log': {
      const line = decisiveLogLine(evidence.tail);
      const { pod, container } = evidence;
      return {
        line: line ? say`${icon('log')} ${w.log({ pod, container, line: clip(line, 160) })}` : null,
        parts: [codePart(plain(w.previousLog({ pod, container })), evidence.tail)],
      };
    }
    case 'condition': {
      const reason = evidence.reason ? ` (${evidence.reason})` : '';
      return {
        line: say`${icon('progress')} ${strong(`${evidence.condition}=${evidence.status}`)}${reason}${evidence.message ? `: ${clip(firstSentence(evidence.message), 160)}` : ''}`,
        parts: prose(
          say`${strong(w.condition({}))} ${evidence.condition}=${evidence.status}${reason}${evidence.message ? `: ${evidence.message}` : ''}`,
        ),
      };
    }
    case 'pods':
      return {
        line: null,
        parts: [
          tablePart(
            plain(said(evidence.title)),
            columns(w.podColumns({})),
            evidence.pods.map((p) => [p.name, p.node ?? '-', p.phase ?? '-', said(p.detail ?? '')]),
          ),
        ],
      };
    case 'note':
      return {
        line: say`${icon('note')} ${clip(firstSentence(said(evidence.text)), 200)}`,
        parts: prose(say`${w.note({})} ${said(evidence.text)}`),
      };
    case 'device-health':
      return { line: deviceHealthLine(evidence, w), parts: [deviceHealthPart(evidence, w)] };
  }
}

/** One decisive line for the result message, or null when this evidence only belongs in the thread report. */
export function evidenceLine(
  evidence: Evidence,
  options: { clueElsewhere?: boolean; lang?: Lang } = {},
): Rich | null {
  return evidenceView(evidence, wordsIn(EVIDENCE_WORDS, options.lang ?? 'en'), options).line;
}

/** One evidence item in full, for the thread report and the command line. */
export function evidenceParts(evidence: Evidence, lang: Lang = 'en'): ContentPart[] {
  return evidenceView(evidence, wordsIn(EVIDENCE_WORDS, lang), { lang }).parts;
}

const prose = (text: Rich): ContentPart[] => [{ kind: 'paragraph', text }];

function quotaLine(evidence: Extract<Evidence, { type: 'quota' }>, w: Words): Rich {
  const rows = evidence.rows.slice(0, 2).map((r) => w.quotaRow(r));
  return say`${icon('balance')} ${strong(`ResourceQuota ${evidence.quota}:`)} ${join(rows, '; ')}`;
}

function quotaPart(evidence: Extract<Evidence, { type: 'quota' }>, w: Words): ContentPart {
  return tablePart(
    plain(w.quotaTitle({ quota: evidence.quota })),
    columns(w.quotaColumns({})),
    evidence.rows.map((r) => [r.resource, r.hard, r.used, r.ours, r.others, r.requested]),
  );
}

function schedulingLine(evidence: Extract<Evidence, { type: 'scheduling' }>, w: Words): Rich {
  const head = strong(w.scheduler({}));
  // A plugin error (parsed.aborted) counts no node: its text is the message.
  if (!evidence.parsed || evidence.parsed.aborted)
    return say`${icon('calendar')} ${head} ${clip(firstSentence(evidence.message), 200)}`;
  const p = evidence.parsed;
  const reasons = p.reasons.slice(0, 3).map((r) => `${r.count} ${r.reason}`);
  const rest = p.reasons.length > 3 ? w.moreReasons({ n: p.reasons.length - 3 }) : '';
  return say`${icon('calendar')} ${head} ${w.noneAvailable({ total: p.total, reasons: reasons.join(', ') })}${rest}`;
}

function deviceHealthLine(evidence: Extract<Evidence, { type: 'device-health' }>, w: Words): Rich {
  const bad = evidence.rows.filter((r) => r.health === 'Unhealthy').slice(0, 2);
  if (bad.length === 0)
    return say`${icon('connection')} ${strong(w.deviceHealth({}))} ${deviceVerdictWords(evidence)}`;
  const parts = bad.map((r) =>
    w.deviceOn({
      device: r.driver ? `${r.driver}/${r.pool ?? ''}/${r.device ?? ''}` : (r.resourceID ?? '?'),
      node: r.node,
      pod: r.pod,
      claim: r.claim ?? '',
    }),
  );
  return say`${icon('connection')} ${strong(w.deviceUnhealthy({}))} ${join(parts, '; ')}`;
}

function deviceHealthPart(evidence: Extract<Evidence, { type: 'device-health' }>, w: Words): ContentPart {
  return tablePart(
    plain(w.deviceTitle({ verdict: deviceVerdictWords(evidence) })),
    columns(w.deviceColumns({})),
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

function capacityLine(evidence: Extract<Evidence, { type: 'node-capacity' }>, w: Words): Rich | null {
  const rows = evidence.rows.filter((r) => r.holders.length > 0 || r.free === '0').slice(0, 2);
  if (rows.length === 0) return null;
  const parts = rows.map((r) => {
    const holders = r.holders.map((h) => `${h.pod}${h.ownedByThisDeployment ? w.ours({}) : ''}`);
    return w.capacityRow({ ...r, held: holders.length ? few(holders, w, 2) : '' });
  });
  const more = evidence.rows.length > rows.length ? w.capacityRowsInThread({ n: evidence.rows.length }) : '';
  return say`${icon('locked')} ${join(parts, '; ')}${more}`;
}

function strategyLine(evidence: Extract<Evidence, { type: 'strategy' }>, w: Words): Rich {
  const s = evidence.strategy;
  const perNode = s.per === 'node';
  const at = (perNode ? w.atNodes : w.atReplicas)({ n: evidence.replicas });
  const head = say`${icon('working')} ${strong(w.strategy({}))}`;
  if (s.type !== 'RollingUpdate') return say`${head} ${w.strategyAt({ type: s.type, at })}`;
  if (s.argo === 'blueGreen') return say`${head} ${w.blueGreenAt({ at })}`;
  if (s.argo === 'trafficRouted') return say`${head} ${w.trafficRoutedAt({ at })}`;
  const surge = s.maxSurge?.value ?? 0;
  const unavailable = s.maxUnavailable?.value ?? 0;
  const why = surge > 0 && unavailable === 0 ? (perNode ? w.surgeFirstPerNode({}) : w.surgeFirst({})) : '';
  const values = {
    at,
    maxSurge: strategyValue(s.maxSurge),
    maxUnavailable: strategyValue(s.maxUnavailable),
  };
  return say`${head} ${s.argo === 'canary' ? w.canaryAt(values) : w.rollingAt(values)}${why}`;
}

function crashTableLine(evidence: Extract<Evidence, { type: 'crash-table' }>, w: Words): Rich {
  const rows = evidence.rows.slice(0, 4).map((r) => {
    const exit =
      r.lastExitCode === undefined ? '' : w.exitCode({ code: r.lastExitCode, reason: r.lastReason ?? '' });
    return r.crashing > 0 ? w.crashingRow({ ...r, exit }) : w.healthyRow(r);
  });
  const more = evidence.rows.length > 4 ? w.moreNodes({ n: evidence.rows.length - 4 }) : '';
  return say`${icon('chart')} ${strong(w.podsPerNodeHead({}))} ${join(rows, '; ')}${more}`;
}

function nodeDiffLine(
  evidence: Extract<Evidence, { type: 'node-diff' }>,
  w: Words,
  options: { clueElsewhere?: boolean },
): Rich | null {
  const diffs = evidence.differences.slice(0, 2).map((d) => w.differs(d));
  if (diffs.length === 0) return null;
  const more =
    evidence.differences.length > 2 ? w.moreDifferences({ n: evidence.differences.length - 2 }) : '';
  // The clue leads and points at none of these: they are marked as such.
  const nodes = few(evidence.badNodes, w, 3);
  const head = options.clueElsewhere ? w.alsoDiffers({ nodes }) : w.whatDiffers({ nodes });
  return say`${icon('inspect')} ${strong(head)} ${join(diffs, '; ')}${more}`;
}

/** The log clue as one line for the result message. */
export function clueLine(clue: CrashClueEvidence, lang: Lang = 'en'): Rich {
  const w = wordsIn(EVIDENCE_WORDS, lang);
  const where = clue.pod ? say` (${clue.pod}${clue.container ? `/${clue.container}` : ''})` : say``;
  const points = clue.pointsAt ? say`: ${clip(clue.pointsAt, 120)}` : say``;
  return say`${icon('log')} ${strong(w.logClue({}))}${where}: ${code(clip(clue.text, 160))}${points}`;
}

export { table } from './text-table.js';
