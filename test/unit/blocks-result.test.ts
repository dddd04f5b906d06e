import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { leafChanges, dryRunText, headline } from '../../src/chat/use-cases/plan-text.js';
import { renderDiagnosis, threadReport } from '../support/slack-run.js';
import { markPlanInBlocks } from '../../src/chat/slack/mark.js';
import { remediationOutcomeMessage } from '../support/slack-run.js';
import { trusted } from '../../src/chat/slack/blocks/mrkdwn.js';
import { proseSections } from '../../src/chat/slack/blocks/text.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { RemediationPlan, WorkloadPatchPlan } from '../../src/remediation/plan.js';
import { renderMessage } from '../../scripts/demo/slack-render.js';
import { blockKitViolation } from '../support/slack-standin.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';

type Json = Record<string, unknown>;

const plan = (i: number): WorkloadPatchPlan => ({
  id: `exclude-node-${i}`,
  kind: 'exclude-node',
  target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
  summary: `Keep pods off node-${i}.`,
  impact: 'Pods on that node are replaced. The rest stay.',
  warnings: [],
  patch: {
    type: 'json',
    body: [{ op: 'add', path: '/spec/template/spec/affinity', value: { x: 'y'.repeat(500) } }],
  },
  preconditions: { uid: 'u', generation: 1, fields: [] },
  inverse: null,
  addresses: 'CrashLoopOnNode',
});

/** Sentences that end in a marker, so a cut one is easy to spot. */
const EXPLANATION = Array.from({ length: 40 }, (_, i) => `Sentence ${i} says why it happens, end${i}.`).join(
  ' ',
);

function bigDiagnosis(findings: number, plans: number): Diagnosis {
  const rows = Array.from({ length: 40 }, (_, i) => ({
    node: `node-${i}-${'x'.repeat(30)}`,
    pods: 3,
    ready: 1,
    restarts: 40,
    crashing: 2,
    lastExitCode: 139,
    lastReason: 'Error',
  }));
  return {
    target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
    capturedAt: '2026-11-20T10:00:00Z',
    observed: { uid: 'u', generation: 1, resourceVersion: '1' },
    findings: Array.from({ length: findings }, (_, i) => ({
      code: 'CrashLoopOnNode' as const,
      severity: 'critical' as const,
      summary: `crash ${i} ${'s'.repeat(200)}`,
      explanation: EXPLANATION,
      evidence: [
        { type: 'crash-table' as const, rows },
        { type: 'log' as const, pod: 'p', container: 'c', tail: 'log line\n'.repeat(500) },
      ],
      remediations: [],
    })),
    remediations: Array.from({ length: plans }, (_, i) => plan(i)),
    analyzerErrors: [],
  };
}

const open = (d: Diagnosis) =>
  Object.fromEntries(
    d.remediations.map((p) => [p.id, { state: 'open' as const, expiresAt: Date.now() + 1000 }]),
  );

/** All text of a list of messages, as one string. */
const textOf = (messages: { blocks: Json[] }[]): string =>
  messages.map((m) => JSON.stringify(m.blocks)).join('\n');

/** What the Slack client shows of a message, as the demo renders it (emoji names count in full). */
function visible(blocks: Json[]): string {
  return renderMessage({ text: '', blocks }, { color: false }).join('\n');
}

function buttonsOf(blocks: Json[]): { action_id: string; style?: string; text: { text: string } }[] {
  const actions = blocks.find((b) => b.type === 'actions') as
    { elements: { action_id: string; style?: string; text: { text: string } }[] } | undefined;
  return actions?.elements ?? [];
}

const SEED_A = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;
const seedA = diagnose(
  assembleSnapshot(
    { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' },
    loadObjects(readFileSync(SEED_A, 'utf8')),
  ),
);

describe('result message', () => {
  it('the thread names what guards the workload and was not read, under the fixes (unknown, never none; issue 52.2)', () => {
    // The seed dump holds no PodDisruptionBudgets: unknown, not absent.
    const text = textOf(threadReport({ cluster: 'prod', diagnosis: seedA, dryRuns: {} }));
    expect(text).toContain('Not checked against');
    expect(text).toMatch(/PodDisruptionBudgets: not read \([^)]*\): /);
    const noGaps = { ...seedA, coverage: seedA.coverage && { ...seedA.coverage, gaps: [] } };
    expect(textOf(threadReport({ cluster: 'prod', diagnosis: noGaps, dryRuns: {} }))).not.toContain(
      'Not checked against',
    );
  });

  it('promises in the thread only what is there: no dry run or patch without a fix (issue 55)', () => {
    const noFix = bigDiagnosis(1, 0);
    const shown = visible(
      renderDiagnosis({ cluster: 'prod', diagnosis: noFix, dryRuns: {}, plans: {} }).blocks,
    );
    expect(shown).toContain('Full evidence: in the thread.');
    expect(shown).not.toMatch(/dry run|patch/);
    const oneFix = bigDiagnosis(1, 1);
    expect(
      visible(
        renderDiagnosis({ cluster: 'prod', diagnosis: oneFix, dryRuns: {}, plans: open(oneFix) }).blocks,
      ),
    ).toContain('Full evidence, the dry run and the exact patch: in the thread.');
  });

  it('reads in ten seconds for the surge deadlock: verdict, the holder and fenceposts, the fix, one primary button, at most 1,200 visible characters', () => {
    const m = renderDiagnosis({ cluster: 'prod', diagnosis: seedA, dryRuns: {}, plans: open(seedA) });
    const shown = visible(m.blocks);
    expect(shown.length).toBeLessThanOrEqual(1200);
    expect(shown.split('\n')[0]).toBe(
      '🔴 RolloutSurgeDeadlock: Rollout of vision-object-tracker can never finish',
    );
    expect(shown).toMatch(
      /nvidia.com\/gpu on gpu-node-1: 1 allocatable, 1 in use, 0 free, held by vision-object-tracker-\S+ \(ours\)/,
    );
    expect(shown).toContain('maxSurge 25% = 1, maxUnavailable 25% = 0');
    expect(shown).toMatch(
      /Recommended fix: Let old pods go first: RollingUpdate maxSurge 0, maxUnavailable 1/,
    );
    // No patch, no dry run, no table in the message: they are in the thread.
    expect(shown).not.toContain('{"spec"');
    expect(shown).not.toContain('server dry run');
    const buttons = buttonsOf(m.blocks);
    const labels = buttons.map((b) => b.text.text);
    expect(labels[0]).toBe('Apply: set-rolling-update');
    expect(labels).toContain('Apply: set-recreate');
    expect(labels.slice(-2)).toEqual(['Re-run', 'Dismiss']);
    expect(buttons.filter((b) => b.style === 'primary')).toHaveLength(1);
    expect(buttons[0]?.style).toBe('primary');
  });

  it('puts every patch in the thread report exactly once, never in the message', () => {
    const m = renderDiagnosis({ cluster: 'prod', diagnosis: seedA, dryRuns: {}, plans: open(seedA) });
    expect(seedA.remediations.length).toBeGreaterThan(1);
    const thread = textOf(m.thread);
    expect(JSON.stringify(m.blocks)).not.toContain('maxUnavailable\\":');
    for (const p of seedA.remediations)
      expect(thread.split(`Exact patch* (${p.patch?.type ?? ''}) of ${p.id}`)).toHaveLength(2);
    expect(thread.split('\\"maxUnavailable\\": 1')).toHaveLength(2);
  });

  it('stays within Block Kit limits however big the diagnosis, and the thread report cuts nothing', () => {
    const d = bigDiagnosis(12, 15);
    const m = renderDiagnosis({ cluster: 'default', diagnosis: d, dryRuns: {}, plans: open(d) });
    expect(JSON.stringify(m.blocks[0])).toContain('CrashLoopOnNode');
    expect(blockKitViolation(m.blocks)).toBeUndefined();
    expect(m.text).toContain('deployment/web in shop');
    expect(m.thread.length).toBeGreaterThan(1);
    for (const part of m.thread) expect(blockKitViolation(part.blocks)).toBeUndefined();
    const thread = textOf(m.thread);
    // Every sentence of every explanation whole, every table cell whole, every log line.
    for (let i = 0; i < 40; i += 1) {
      expect(thread.split(`Sentence ${i} says why it happens, end${i}.`).length - 1).toBe(12);
    }
    for (let i = 0; i < 40; i += 1) expect(thread).toContain(`node-${i}-${'x'.repeat(30)}`);
    expect(thread.split('log line').length - 1).toBe(12 * 500);
    expect(thread).not.toContain('…');
    expect(thread).toContain('Full report, part 2 of');
  });

  it('offers the top finding’s best plan first and marks expired plans', () => {
    const d = bigDiagnosis(1, 2);
    const top = d.findings[0];
    if (!top) throw new Error('fixture has a finding');
    top.remediations = ['exclude-node-1', 'exclude-node-0'];
    top.evidence = [{ type: 'note', text: 'n' }];
    const m = renderDiagnosis({
      cluster: 'default',
      diagnosis: d,
      dryRuns: {},
      plans: { 'exclude-node-1': { state: 'open', expiresAt: 1 }, 'exclude-node-0': { state: 'expired' } },
    });
    expect(blockKitViolation(m.blocks)).toBeUndefined();
    const buttons = buttonsOf(m.blocks);
    expect(buttons.map((e) => e.action_id)).toEqual([
      'approve_plan.0',
      'plan_status.1',
      'rerun_diagnosis',
      'dismiss_result',
    ]);
    expect(buttons[0]?.text.text).toBe('Apply: exclude-node');
    expect(JSON.stringify(m.blocks)).toContain('Recommended fix:* Keep pods off node-1.');
    expect(buttons[1]?.text.text).toMatch(/^Expired/);
  });

  it('shows a plan approved from another message as approved, and keeps offering the others', () => {
    const first = seedA.remediations[0]?.id ?? '';
    const m = renderDiagnosis({
      cluster: 'prod',
      diagnosis: seedA,
      dryRuns: {},
      plans: { ...open(seedA), [first]: { state: 'claimed', approvers: ['U0LEAD'], at: 0 } },
    });
    const ids = buttonsOf(m.blocks).map((b) => b.action_id);
    expect(ids[0]).toBe('plan_status.0');
    expect(ids).toContain('approve_plan.1');
  });

  it('withdraws the other Apply buttons once a plan is approved, on re-render and on the click', () => {
    const m = renderDiagnosis({
      cluster: 'prod',
      diagnosis: seedA,
      dryRuns: {},
      plans: {
        ...open(seedA),
        [seedA.remediations[0]?.id ?? '']: { state: 'claimed', approvers: ['U0LEAD'], at: 0 },
      },
      approvedPlan: seedA.remediations[0]?.id ?? '',
    });
    expect(buttonsOf(m.blocks).map((b) => b.action_id)).toEqual([
      'plan_status.0',
      'rerun_diagnosis',
      'dismiss_result',
    ]);
    const fresh = renderDiagnosis({ cluster: 'prod', diagnosis: seedA, dryRuns: {}, plans: open(seedA) });
    const first = seedA.remediations[0]?.id ?? '';
    const marked = markPlanInBlocks(fresh.blocks, first, 'Approved: x', trusted('approved'), {
      withdrawOthers: true,
    });
    expect(buttonsOf(marked).map((b) => b.action_id)).toEqual([
      'plan_status.0',
      'rerun_diagnosis',
      'dismiss_result',
    ]);
    expect(JSON.stringify(marked)).toContain('The other fixes were withdrawn');
    expect(blockKitViolation(marked)).toBeUndefined();
  });

  it('names the GitOps owner in one line and whether it reverts the recommended fix', () => {
    const d = structuredClone(seedA);
    d.managedBy = {
      tool: 'argocd',
      name: 'vision',
      namespace: 'argocd',
      evidence: 'annotation argocd.argoproj.io/tracking-id',
    };
    const first = d.remediations.find((p) => p.id === d.findings[0]?.remediations[0]);
    if (!first) throw new Error('fixture has a recommended plan');
    first.drift = {
      reverted: true,
      by: 'Argo CD application vision',
      fields: ['spec.strategy'],
      why: 'self-heal is on and spec.strategy is in the desired manifest.',
    };
    const m = renderDiagnosis({ cluster: 'prod', diagnosis: d, dryRuns: {}, plans: open(d) });
    const shown = visible(m.blocks);
    expect(shown).toContain('managed by Argo CD application vision (argocd)');
    expect(shown).toContain(
      'Argo CD application vision will revert this: self-heal is on and spec.strategy is in the desired manifest.',
    );
    expect(shown.length).toBeLessThanOrEqual(1200);
    expect(textOf(m.thread)).toContain('annotation argocd.argoproj.io/tracking-id');
  });

  it('brings the crash engine’s log clue into the message, in place of the raw log tail', () => {
    const d = bigDiagnosis(1, 0);
    const top = d.findings[0];
    if (!top) throw new Error('fixture has a finding');
    top.evidence.push({
      type: 'node-diff',
      badNodes: ['node-b'],
      goodNodes: ['node-a'],
      differences: [{ field: 'osImage', bad: 'Ubuntu 20.04.6 LTS', good: 'Debian GNU/Linux 12 (bookworm)' }],
      clue: {
        text: 'SIGILL: illegal instruction',
        source: 'log',
        pod: 'web-7d9f8-x2x4z',
        container: 'web',
        meaning: 'The binary uses CPU instructions this node lacks.',
      },
    });
    const shown = visible(renderDiagnosis({ cluster: 'prod', diagnosis: d, dryRuns: {}, plans: {} }).blocks);
    expect(shown).toContain('Log clue (web-7d9f8-x2x4z/web): `SIGILL: illegal instruction`');
    // The clue points at no difference: it comes first, the difference marked as such (issue 29.5).
    const differs =
      'Also differs on node-b (the clue points at none of it): osImage Ubuntu 20.04.6 LTS (others: Debian GNU/Linux 12 (bookworm))';
    expect(shown).toContain(differs);
    expect(shown.indexOf('Log clue')).toBeLessThan(shown.indexOf(differs));
    expect(shown).not.toContain('Log (p/c)');
  });

  it('says when the server-side dry run refused the recommended fix', () => {
    const first = seedA.findings[0]?.remediations[0] ?? '';
    const m = renderDiagnosis({
      cluster: 'prod',
      diagnosis: seedA,
      dryRuns: { [first]: { ok: false, reason: 'admission webhook "policy" denied the request. More.' } },
      plans: open(seedA),
    });
    expect(visible(m.blocks)).toContain(
      'The server-side dry run refused it: admission webhook "policy" denied the request.',
    );
  });

  it('keeps a long summary to its opening clause in the verdict line', () => {
    expect(headline(`Rollout of x can never finish: ${'details '.repeat(40)}end.`)).toBe(
      'Rollout of x can never finish',
    );
    expect(headline('Short. Second sentence.')).toBe('Short.');
  });

  it('the stand-in refuses what Slack refuses', () => {
    expect(
      blockKitViolation([{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } }]),
    ).toMatch(/3000/);
    expect(blockKitViolation(Array.from({ length: 51 }, () => ({ type: 'divider' })))).toMatch(/too many/);
  });
});

describe('thread report sections', () => {
  it('split long prose after whole sentences, keep line breaks, and lose nothing', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `Line ${i}: ${'word '.repeat(30)}end of line ${i}.`);
    const token = `x&amp;${'y'.repeat(6000)}`;
    const text = trusted(`${lines.join('\n')}\n${token}`);
    const sections = proseSections(text).map((b) => (b as { text: { text: string } }).text.text);
    expect(sections.length).toBeGreaterThan(2);
    for (const t of sections) expect(t.length).toBeLessThanOrEqual(3000);
    for (let i = 0; i < 30; i += 1)
      expect(sections.some((t) => t.includes(`Line ${i}: ${'word '.repeat(30)}end of line ${i}.`))).toBe(
        true,
      );
    expect(sections.join('')).toContain(token);
    expect(sections.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
  });
});

describe('dry-run diff', () => {
  it('narrows a replaced subtree to the fields that changed (no two identical prefixes)', () => {
    const anti = {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname' } },
      ],
    };
    const node = {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b'] }] },
        ],
      },
    };
    const changes = leafChanges({
      path: '/spec/template/spec/affinity',
      before: { podAntiAffinity: anti },
      after: { podAntiAffinity: anti, nodeAffinity: node },
    });
    expect(changes).toEqual([{ path: '/spec/template/spec/affinity/nodeAffinity', after: node }]);
    const text = dryRunText({
      ok: true,
      changes: [{ path: '/a', before: { 'x/y': 1, same: 2 }, after: { 'x/y': 2, same: 2 } }],
    });
    expect(text).toBe('server dry run:\na[x/y]: 1 → 2');
  });
});

describe('undo reply', () => {
  const applied = (stage: 'applied' | 'rolled-out') =>
    ({
      kind: 'remediation-outcome',
      planId: 'p1',
      cluster: 'default',
      channel: 'C1',
      messageTs: '1.2',
      stage,
      detail: 'done',
      undoPlanId: 'undo-p1',
    }) as const;
  const undoOf = (patch: RemediationPlan['patch'], addresses = 'RolloutSurgeDeadlock') => ({
    plan: {
      ...plan(0),
      id: 'undo-p1',
      kind: 'set-rolling-update' as const,
      patch,
      addresses,
    } as RemediationPlan,
    cluster: 'default',
    createdAt: 0,
    expiresAt: Date.now() + 60_000,
  });

  it('says what a strategy-only undo restores and that it starts no rollout, once', () => {
    const undo = undoOf({
      type: 'strategic-merge',
      body: {
        spec: {
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        },
      },
    });
    const first = JSON.stringify(remediationOutcomeMessage(applied('applied'), undo).blocks);
    expect(first).toContain(
      'restores the rollout strategy (RollingUpdate maxSurge 25%, maxUnavailable 25%) of deployment/web',
    );
    expect(first).toContain('It does not start a rollout');
    expect(first).not.toContain('starts a new rollout');
    expect(first).toContain('The next rollout would deadlock again.');
    expect(first).toContain('undo_plan.0');
    const later = JSON.stringify(remediationOutcomeMessage(applied('rolled-out'), undo).blocks);
    expect(later).not.toContain('undo_plan');
    expect(later).not.toContain('restores');
    expect(later).toContain('Undo is offered in the');
  });

  it('says an affinity undo starts a rollout', () => {
    const undo = undoOf(
      {
        type: 'json',
        body: [
          { op: 'test', path: '/spec/template/spec/affinity', value: {} },
          { op: 'remove', path: '/spec/template/spec/affinity' },
        ],
      },
      'CrashLoopOnNode',
    );
    const text = JSON.stringify(remediationOutcomeMessage(applied('applied'), undo).blocks);
    expect(text).toContain('the previous pod affinity');
    expect(text).toContain('a new rollout starts');
    expect(text).not.toContain('deadlock');
  });
});

describe('verdict and outcome wording', () => {
  it('states the top finding once in the message and whole in the thread, with its explanation', () => {
    const diagnosis = bigDiagnosis(2, 0);
    const first = diagnosis.findings[0];
    if (!first) throw new Error('fixture has findings');
    first.explanation = 'Why it happens.';
    const { blocks } = renderDiagnosis({ cluster: 'default', diagnosis, dryRuns: {}, plans: {} });
    const json = JSON.stringify(blocks);
    expect(json.split('crash 0 ').length - 1).toBe(1);
    expect(json).toContain('Also found: *CrashLoopOnNode*');
    const thread = textOf(threadReport({ cluster: 'default', diagnosis, dryRuns: {} }));
    expect(thread).toContain('Why it happens.');
    expect(thread.split('crash 1 ').length - 1).toBe(1);
  });

  it('puts the change to commit in the thread, never as a button', () => {
    const diagnosis = diagnose(seedIncidentA());
    expect(diagnosis.manifestChanges?.length).toBeGreaterThan(0);
    const thread = textOf(threadReport({ cluster: 'default', diagnosis, dryRuns: {} }));
    expect(thread).toContain('Change to commit');
    expect(thread).toContain('+      maxSurge: 0');
    const { blocks } = renderDiagnosis({ cluster: 'default', diagnosis, dryRuns: {}, plans: {} });
    expect(JSON.stringify(blocks)).not.toContain('Change to commit');
  });

  it('renders approvers as Slack mentions in thread replies', () => {
    const message = remediationOutcomeMessage({
      kind: 'remediation-outcome',
      planId: 'p1',
      cluster: 'default',
      channel: 'C1',
      messageTs: '1.2',
      stage: 'applied',
      detail: 'Let old pods go first <now>',
      approvedBy: ['U0LEAD', 'U0TWO'],
    });
    const section = JSON.stringify(message.blocks[0]);
    expect(section).toContain('(approved by <@U0LEAD> and <@U0TWO>)');
    expect(section).toContain('&lt;now&gt;');
    expect(message.text).toContain('approved by <@U0LEAD>');
  });
});
