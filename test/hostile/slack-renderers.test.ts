/**
 * Every Slack message builder fed a diagnosis, plans, outcomes and alert jobs whose
 * every string carries hostile text: no block, fallback text, confirm dialog or
 * thread reply may hold a live mention, link, control or bidi character, or a
 * breakable code fence.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_INTERPOLATION, trusted } from '../../src/chat/slack/blocks/mrkdwn.js';
import { codeSections } from '../../src/chat/slack/blocks/text.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';
import {
  confirmDialogText,
  notFoundText,
  planButton,
  planDetailBlocks,
  renderDiagnosis,
  renderOutcome,
  renderProgress,
  threadReport,
} from '../support/slack-run.js';
import { remediationOutcomeMessage } from '../support/slack-run.js';
import {
  alertTitle,
  earlyWarningOverflowMessage,
  earlyWarningRootMessage,
  firingRootMessage,
  overflowMessage as overflowChatMessage,
  resolvedRootMessage,
  rootNote,
  threadLineMessage,
} from '../../src/app/alerts/messages.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { Evidence } from '../../src/diagnosis/finding.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { parseCommand } from '../../src/chat/use-cases/command-parse.js';
import { renderMessage, toMrkdwn } from '../../src/chat/slack/render.js';
import type { AlertOverflowJob } from '../../src/queue/alert-jobs.js';
import type { Rich } from '../../src/chat/model.js';

/** The alert thread's messages (src/app/alerts/messages.ts) as the Slack adapter posts them. */
const firingRoot = (title: string, detail: string | undefined, note?: Rich) =>
  renderMessage(firingRootMessage(title, detail, [], note));
const resolvedRoot = (title: string, at: string) => renderMessage(resolvedRootMessage(title, at));
const threadLine = (kind: 'resolved' | 'refiring', at: string) => renderMessage(threadLineMessage(kind, at));
const overflowMessage = (job: AlertOverflowJob) => renderMessage(overflowChatMessage(job));
import { notifyJobSchema } from '../../src/queue/schemas.js';
import { HOSTILE, poison, shownStrings, unsafeMarkup } from './support/hostile-text.js';

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;
const base = diagnose(
  assembleSnapshot(
    { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' },
    loadObjects(readFileSync(FIXTURE, 'utf8')),
  ),
);

/** Enums the renderers switch on; everything else is text a workload or alert could carry. */
const STRUCTURAL = new Set(['type', 'kind', 'severity', 'source', 'category', 'state', 'status', 'id']);

const extraEvidence: Evidence[] = [
  { type: 'log', pod: 'p', container: 'c', tail: 'line one\nline two' },
  { type: 'note', text: 'note' },
  { type: 'condition', condition: 'Progressing', status: 'False', reason: 'r', message: 'm' },
  {
    type: 'node-diff',
    badNodes: ['node-b'],
    goodNodes: ['node-a'],
    differences: [{ field: 'osImage', bad: 'Ubuntu', good: 'Debian' }],
    clue: { text: 'clue', source: 'log', pod: 'p', container: 'c', pointsAt: 'osImage', meaning: 'm' },
  },
  {
    type: 'crash-table',
    rows: [
      { node: 'node-b', pods: 1, ready: 0, restarts: 3, crashing: 1, lastExitCode: 132, lastReason: 'Error' },
    ],
  },
  { type: 'scheduling', pod: 'p', message: '0/3 nodes are available', parsed: null },
];

function hostileDiagnosis(): Diagnosis {
  const d = structuredClone(base);
  const first = d.findings[0];
  if (!first) throw new Error('fixture has no finding');
  first.evidence.push(...extraEvidence);
  return poison(d, STRUCTURAL);
}

describe('Slack builders with hostile text in every field', () => {
  const diagnosis = hostileDiagnosis();
  const plans = Object.fromEntries(
    diagnosis.remediations.map((p) => [p.id, { state: 'open' as const, expiresAt: Date.now() + 60_000 }]),
  );

  it('the result message (blocks, fallback text, buttons, confirm dialogs) carries no live markup', () => {
    const rendered = renderDiagnosis({ cluster: `prod ${HOSTILE}`, diagnosis, dryRuns: {}, plans });
    expect(diagnosis.remediations.length).toBeGreaterThan(0);
    expect(unsafeMarkup({ text: rendered.text, blocks: rendered.blocks })).toEqual([]);
    // The hostile text did reach the message, escaped (so this test can fail).
    expect(JSON.stringify(rendered.blocks)).toContain('&lt;!channel&gt;');
    const claimed = renderDiagnosis({
      cluster: 'prod',
      diagnosis,
      dryRuns: Object.fromEntries(
        diagnosis.remediations.map((p) => [p.id, { ok: false as const, reason: HOSTILE }]),
      ),
      plans: Object.fromEntries(
        diagnosis.remediations.map((p) => [
          p.id,
          { state: 'claimed' as const, approvers: ['U0LEAD', HOSTILE], at: 0 },
        ]),
      ),
    });
    expect(unsafeMarkup(claimed)).toEqual([]);
  });

  it('the thread report (full evidence, dry runs, patches) carries no live markup', () => {
    const thread = threadReport({
      cluster: `prod ${HOSTILE}`,
      diagnosis,
      dryRuns: Object.fromEntries(
        diagnosis.remediations.map((p) => [
          p.id,
          { ok: true as const, changes: [{ path: HOSTILE, before: HOSTILE, after: { x: HOSTILE } }] },
        ]),
      ),
    });
    expect(thread.length).toBeGreaterThan(0);
    expect(unsafeMarkup(thread)).toEqual([]);
    expect(JSON.stringify(thread)).toContain('&lt;!channel&gt;');
    // The same thread report comes with the rendered result.
    expect(unsafeMarkup(renderDiagnosis({ cluster: 'prod', diagnosis, dryRuns: {}, plans }).thread)).toEqual(
      [],
    );
  });

  it('the "did you mean" answer to a mistyped name carries no live markup', () => {
    const text = notFoundText(HOSTILE, { namespace: 'ns', name: 'web', suggestions: ['web-1', 'web-2'] });
    expect(unsafeMarkup({ text })).toEqual([]);
    expect(text).toContain('did you mean *deployment/web-1* or *deployment/web-2*?');
  });

  it('scan results, failures and progress carry no live markup', () => {
    const scan = renderOutcome(
      'prod',
      {
        status: 'scanned',
        summary: HOSTILE,
        items: [{ namespace: HOSTILE, name: HOSTILE, code: 'CRASH_LOOP', summary: HOSTILE }],
      } as never,
      { namespace: 'ns', name: 'n' },
    );
    const failed = renderOutcome('prod', { status: 'failed', reason: HOSTILE } as never, null);
    expect(unsafeMarkup([scan, failed, renderProgress(HOSTILE)])).toEqual([]);
  });

  it('remediation outcome replies (detail, approvers, undo plan) carry no live markup', () => {
    const plan = diagnosis.remediations[0];
    if (!plan) throw new Error('no plan');
    const message = remediationOutcomeMessage(
      {
        kind: 'remediation-outcome',
        stage: 'refused',
        detail: HOSTILE,
        approvedBy: ['U0LEAD', HOSTILE],
        planId: 'p1',
        cluster: `prod ${HOSTILE}`,
        channel: 'C1',
        messageTs: '1.2',
      } as never,
      { plan, expiresAt: Date.now() + 60_000 } as never,
    );
    expect(unsafeMarkup(message)).toEqual([]);
    const undo = remediationOutcomeMessage(
      {
        kind: 'remediation-outcome',
        stage: 'applied',
        detail: HOSTILE,
        planId: 'p1',
        cluster: 'prod',
        channel: 'C1',
        messageTs: '1.2',
        undoPlanId: 'u1',
      },
      { plan, cluster: 'prod', createdAt: 0, expiresAt: Date.now() + 60_000 },
    );
    expect(JSON.stringify(undo.blocks)).toContain('undo_plan.0');
    expect(unsafeMarkup(undo)).toEqual([]);
    expect(
      unsafeMarkup([
        ...planDetailBlocks({ plan, cluster: HOSTILE }, 'Fix'),
        planButton({ plan, cluster: HOSTILE }, { state: 'open', expiresAt: 1 }),
      ]),
    ).toEqual([]);
    expect(unsafeMarkup({ text: confirmDialogText(plan) })).toEqual([]);
    expect(unsafeMarkup({ text: confirmDialogText(plan, { undo: true }) })).toEqual([]);
  });

  it('alert thread messages (title, summary, externalURL, thread lines) carry no live markup', () => {
    const job = {
      alertNames: [HOSTILE],
      workload: { cluster: HOSTILE, namespace: HOSTILE, deployment: HOSTILE, pods: [] },
      truncatedAlerts: 2,
      externalURL: `https://evil.example/${HOSTILE}`,
    } as never;
    const title = alertTitle(job);
    const messages = [
      firingRoot(title, HOSTILE, rootNote(job)),
      firingRoot(title, HOSTILE, rootNote(job, [`evil.example`])),
      firingRoot(title, undefined),
      renderMessage(earlyWarningRootMessage(title, HOSTILE)),
      renderMessage(earlyWarningOverflowMessage(20, title)),
      resolvedRoot(title, HOSTILE),
      threadLine('resolved', HOSTILE),
      threadLine('refiring', HOSTILE),
      overflowMessage({
        kind: 'alert-overflow',
        cause: 'notification',
        groupHash: '0'.repeat(32),
        channel: 'C0ALERTS',
        workloads: 2_980,
        firing: 2_980,
        limit: 20,
        alertNames: [HOSTILE, 'KubePodCrashLooping'],
        namespaces: [HOSTILE],
        receivedAt: HOSTILE,
      }),
    ];
    expect(unsafeMarkup(messages)).toEqual([]);
  });

  it('a refused slash command quotes what was typed without live markup', () => {
    for (const text of [
      `--x${HOSTILE}`,
      `deploy/a -n ${HOSTILE}`,
      `pod/${HOSTILE}`,
      `web --cluster ${HOSTILE}`,
      `BAD${HOSTILE}`,
    ]) {
      const parsed = parseCommand(text, { clusters: ['prod'], defaultCluster: 'prod' });
      expect(parsed.kind).toBe('invalid');
      expect(unsafeMarkup({ text: parsed.kind === 'invalid' ? toMrkdwn(parsed.problem) : '' })).toEqual([]);
    }
  });
});

describe('cluster text of any size: bounded replies, bounded work', () => {
  /** Seed incident A applied by an Argo CD application whose name (an annotation value) is huge. */
  function argoOwned(appName: string): Diagnosis {
    const snapshot = seedIncidentA();
    const d = snapshot.parts.deployment;
    d.metadata.annotations = {
      ...d.metadata.annotations,
      'argocd.argoproj.io/tracking-id': `${appName}:apps/Deployment:${d.metadata.namespace ?? ''}/${d.metadata.name ?? ''}`,
    };
    Object.assign(d.metadata, {
      managedFields: [
        {
          manager: 'argocd-controller',
          operation: 'Apply',
          apiVersion: 'apps/v1',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:spec': { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:containers': {} } } } },
        },
      ],
    });
    return diagnose(snapshot);
  }

  it('a 100 KB Argo CD application name fills a few thread replies, not dozens', () => {
    const name = `app${'x'.repeat(100_000)} <!channel> *bold*`;
    const diagnosis = argoOwned(name);
    expect(diagnosis.managedBy?.name).toBe(name);
    const rendered = renderDiagnosis({ cluster: 'prod', diagnosis, dryRuns: {}, plans: {} });
    expect(unsafeMarkup(rendered)).toEqual([]);
    // Every line quoting the name quotes at most MAX_INTERPOLATION characters of it.
    expect(rendered.thread.length).toBeLessThanOrEqual(4);
    expect(JSON.stringify(rendered.thread)).toContain(`app${'x'.repeat(MAX_INTERPOLATION - 10)}`);
    // The change to commit is still whole, line by line, under the (long) title.
    expect(JSON.stringify(rendered.thread)).toContain('+  strategy:\\n+    type: RollingUpdate');
  });

  it('a code section under a title longer than a section keeps the body lines whole', () => {
    const blocks = codeSections(
      trusted(`*Change to commit* in ${'x'.repeat(2_770)}`),
      ' spec:\n+  strategy:',
    );
    const text = blocks.map((b) => (b.text as { text: string }).text).join('\n');
    expect(text).toContain(' spec:\n+  strategy:');
    for (const b of blocks) expect((b.text as { text: string }).text.length).toBeLessThanOrEqual(3000);
  });

  it('a 200 KB scheduler message that does not parse is shown up to a cap, saying what was left out', () => {
    const message = `${'0/3 nodes <!here> are & available '.repeat(6_000)}\nlast line`;
    const d = structuredClone(base);
    d.findings[0]?.evidence.splice(0, Infinity, { type: 'scheduling', pod: 'p', message, parsed: null });
    d.remediations = [];
    const thread = threadReport({ cluster: 'prod', diagnosis: d, dryRuns: {} });
    expect(unsafeMarkup(thread)).toEqual([]);
    const blocks = thread.flatMap((m) => m.blocks);
    // About seven code sections for the message (its first 20,000 characters), not 135.
    expect(blocks.length).toBeLessThan(25);
    expect(JSON.stringify(thread)).toMatch(
      /… \d+ more characters not shown here \(rollout-doctor diagnose prints them all\)/,
    );
  });

  it('an exact patch is never cut, however long', () => {
    const plan = structuredClone(base.remediations[0]);
    if (!plan?.patch) throw new Error('no patch');
    plan.patch = { type: plan.patch.type, body: { metadata: { annotations: { big: 'Ω'.repeat(60_000) } } } };
    const blocks = planDetailBlocks({ plan, cluster: 'prod' }, 'Fix');
    const shown = blocks.map((b) => (b.text as { text: string }).text).join('');
    expect(shown.split('Ω').length - 1).toBe(60_000);
  });
});

describe('a diagnosis read back from Redis is JSON: shapes are not trusted', () => {
  it('an object shaped like an already-escaped piece ({"safe": …}) where text belongs is escaped, not passed through', () => {
    // What a Redis writer can enqueue as a notify job: the schema checks the diagnosis's
    // outline, not every evidence field (the renderers own those).
    const forged = { safe: '<!channel> <https://evil.example|Click to re-authenticate>' };
    const d = structuredClone(base) as unknown as Record<string, unknown> & Diagnosis;
    const finding = d.findings[0];
    if (!finding) throw new Error('fixture has no finding');
    finding.evidence = [
      { type: 'note', text: 'x' },
      {
        type: 'crash-table',
        rows: [{ node: forged, pods: 1, ready: 0, restarts: 3, crashing: 1 }],
      } as unknown as Evidence,
      {
        type: 'log',
        pod: forged,
        container: forged,
        tail: 'line',
      } as unknown as Evidence,
    ];
    const job = notifyJobSchema.parse({
      kind: 'diagnosis-result',
      jobId: 'j1',
      cluster: 'prod',
      runTs: 1,
      seq: 1,
      outcome: { status: 'diagnosed', diagnosis: d, dryRuns: {} },
    });
    if (job.kind !== 'diagnosis-result' || job.outcome.status !== 'diagnosed')
      throw new Error('not a result');
    const rendered = renderDiagnosis({
      cluster: 'prod',
      diagnosis: job.outcome.diagnosis,
      dryRuns: {},
      plans: {},
    });
    expect(unsafeMarkup(rendered)).toEqual([]);
    expect(JSON.stringify(rendered)).not.toContain('<!channel>');
  });
});

/**
 * Slack formatting a workload owner or alert author can write: bold, italics,
 * strike-through, our icons, and a quote on a line of its own. Slack has no backslash
 * escape for any of them.
 */
const FORMATTING = '*URGENT* approve now _x_ ~y~ :white_check_mark: approved by SRE\n> quote\n>>> all of it';

/** Every place the formatting above is live in a payload: outside code, in mrkdwn text. */
function liveFormatting(payload: unknown): string[] {
  return shownStrings(payload).flatMap(({ path, text, plain }) => {
    if (plain) return [];
    const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
    const found: string[] = [];
    if (prose.includes('*URGENT*')) found.push('bold');
    if (/(?<![A-Za-z0-9])_x_(?![A-Za-z0-9])/.test(prose)) found.push('italics');
    if (prose.includes('~y~')) found.push('strike-through');
    if (prose.includes(':white_check_mark: approved')) found.push('emoji');
    if (/^[ \t]*(?:>|&gt;)/m.test(prose)) found.push('quote');
    return found.map((f) => `${path}: ${f} (${JSON.stringify(text.slice(0, 160))})`);
  });
}

/** Every string of a JSON-like value with FORMATTING appended, except enums and codes. */
function withFormatting<T>(value: T, key = ''): T {
  if (typeof value === 'string') return (STRUCTURAL.has(key) ? value : `${value} ${FORMATTING}`) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => withFormatting(v, key)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = withFormatting(v, k);
    return out as T;
  }
  return value;
}

describe('Slack formatting in cluster and alert text stays text', () => {
  it('a termination message, an event message and every other field: no live formatting, code blocks exact', () => {
    const d = structuredClone(base);
    const first = d.findings[0];
    if (!first) throw new Error('fixture has no finding');
    first.evidence.push(...extraEvidence);
    const diagnosis = withFormatting(d);
    const crash = diagnosis.findings[0]?.evidence.find((e) => e.type === 'crash-table');
    if (crash?.type !== 'crash-table' || !crash.rows[0]) throw new Error('no crash table');
    crash.rows[0].lastMessage = FORMATTING;
    const rendered = renderDiagnosis({ cluster: `prod ${FORMATTING}`, diagnosis, dryRuns: {}, plans: {} });
    expect(liveFormatting({ text: rendered.text, blocks: rendered.blocks })).toEqual([]);
    expect(liveFormatting(rendered.thread)).toEqual([]);
    // The text did reach the message, as look-alikes outside code and exact inside.
    expect(JSON.stringify(rendered.blocks)).toContain('\u2217URGENT\u2217 approve now');
    const thread = JSON.stringify(rendered.thread);
    expect(thread).toContain(
      '\u2217URGENT\u2217 approve now \uff3fx\uff3f \u223cy\u223c \ua789white_check_mark:',
    );
    // The termination message in the thread's code block, under its title, is exact (only
    // `>` escaped, as before; its further lines marked `  | `, so none passes for a line of
    // the block's own); the crash table cuts it, the code block has it whole.
    const [head, ...more] = FORMATTING.split('\n');
    const message = [head, ...more.map((line) => `  | ${line}`)].join('\n');
    const termination = `last termination message\n\`\`\`\n${crash.rows[0].node}: ${message}\n\`\`\``;
    expect(thread).toContain(JSON.stringify(termination.replace(/>/g, '&gt;')).slice(1, -1));
  });

  it('an Argo CD application name cannot close the bold around it or add icons', () => {
    const snapshot = seedIncidentA();
    const d = snapshot.parts.deployment;
    const appName = 'shop*URGENT*~y~';
    d.metadata.annotations = {
      ...d.metadata.annotations,
      'argocd.argoproj.io/tracking-id': `${appName}:apps/Deployment:${d.metadata.namespace ?? ''}/${d.metadata.name ?? ''}`,
    };
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.managedBy?.name).toBe(appName);
    const rendered = renderDiagnosis({ cluster: 'prod', diagnosis, dryRuns: {}, plans: {} });
    expect(liveFormatting(rendered)).toEqual([]);
    expect(JSON.stringify(rendered)).toContain('shop\u2217URGENT\u2217\u223cy\u223c');
  });

  it('an alert annotation and alert names: no live formatting in the thread root', () => {
    const job = {
      alertNames: [`KubePodCrashLooping ${FORMATTING}`],
      workload: { cluster: 'prod', namespace: 'shop', deployment: `web ${FORMATTING}`, pods: [] },
      truncatedAlerts: 0,
    } as never;
    const title = alertTitle(job);
    const messages = [firingRoot(title, FORMATTING), resolvedRoot(title, FORMATTING)];
    expect(liveFormatting(messages)).toEqual([]);
    const root = JSON.stringify(messages[0]);
    // Our own formatting stays: the bold label and the icon we wrote.
    expect(root).toContain(':rotating_light: *Firing:* KubePodCrashLooping \u2217URGENT\u2217');
    // The annotation's own lines start with look-alikes, not quotes.
    expect(root).toContain('\\n\uff1e quote\\n\uff1e&gt;&gt; all of it');
  });
});
