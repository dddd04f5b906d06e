/**
 * A neighbour Argo Rollout in the middle of its update holds room its controller gives
 * back at the end (forward/job-wait.ts, workloads/rollout/neighbours.ts): beta's canary
 * pod is Ready on gpu-3 and its stable pod holds gpu-2, the only GPU alpha's new pod could
 * take. Its steps ahead (a weight, a timed pause) wait for nobody, so at the end the
 * controller scales the stable ReplicaSet to 0 and alpha finishes: "cannot finish while
 * the rollout of Rollout ml/beta holds its old pods". Where the update stops short of its
 * end (paused by hand, a pause step without a duration, an analysis that may abort it, an
 * abort, a blue-green preview waiting for a person, being deleted) or the Rollout was not
 * read, nothing frees the room: "can never finish" stays, and no plan says to wait.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

const DUMP = join(import.meta.dirname, '../fixtures/dumps/neighbour-argo-rollout-under-way.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-neighbour-argo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Rollout = {
  kind: string;
  metadata: { name?: string; deletionTimestamp?: string };
  spec: { paused?: boolean; strategy: Record<string, Record<string, unknown>> };
  status: Record<string, unknown>;
};

type Report = {
  findings: {
    code: string;
    summary: string;
    evidence: { text?: string }[];
    remediations: string[];
    waitsFor?: { holders: string; names: string[]; argo?: string[] };
  }[];
  remediations: { id: string; warnings: string[] }[];
};

async function diagnose(file: string, lang?: string): Promise<{ status: number; out: string }> {
  const io = fakeIo();
  const status = await runCli(
    [
      'diagnose',
      'deployment/alpha',
      '-n',
      'ml',
      '--from-file',
      file,
      ...(lang ? ['--lang', lang] : ['-o', 'json']),
    ],
    io.io,
  );
  return { status, out: io.stdout() };
}

async function report(file: string): Promise<Report> {
  return JSON.parse((await diagnose(file)).out) as Report;
}

/** The dump with beta's Rollout changed by `edit` (or left out where it returns undefined). */
function withBeta(name: string, edit: (beta: Rollout) => Rollout | undefined): string {
  const dump = JSON.parse(readFileSync(DUMP, 'utf8')) as { items: Rollout[] };
  const items = dump.items.flatMap((i) => {
    if (i.kind !== 'Rollout' || i.metadata.name !== 'beta') return [i];
    const edited = edit(structuredClone(i));
    return edited ? [edited] : [];
  });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ ...dump, items }));
  return file;
}

const lead = (r: Report) => r.findings.find((f) => f.code === 'RolloutSurgeDeadlock');

describe('a neighbour Argo Rollout whose update is under way', () => {
  it('holds its old pods only until the end of its update, which waits for nobody: said so, proved by the run', async () => {
    const { status, out } = await diagnose(DUMP);
    const r = JSON.parse(out) as Report;
    const found = lead(r);
    expect(found?.summary).toContain('cannot finish while the rollout of Rollout ml/beta holds its old pods');
    expect(found?.summary).not.toContain('can never finish');
    expect(found?.waitsFor).toEqual({
      holders: 'rollouts',
      names: ['ml/beta'],
      some: false,
      argo: ['ml/beta'],
    });
    const note = found?.evidence.map((e) => e.text ?? '').find((t) => t.startsWith('Old pods of'));
    expect(note).toContain('beta-b1-x1 on gpu-2');
    expect(note).toContain(
      'the Argo Rollouts controller scales its older ReplicaSets to 0 at the end of the update',
    );
    expect(note).toContain('the controllers finish the rollout');
    const plans = r.remediations.filter((p) => found?.remediations.includes(p.id));
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans)
      expect(plan.warnings[0]).toBe(
        'Waiting may be enough: the rollout goes on by itself once the rollout of Rollout ml/beta removes its old pods, as its controller does at the end of its update, which waits for nobody (run forward with those pods gone), unless its new pods take the room first. This plan acts now, at the cost its impact says.',
      );
    // The rollout is stopped now: the verdict keeps its exit code.
    expect(status).toBe(1);
  });

  it('says it in Korean, with the kind as written and no English left in the headline', async () => {
    const { out } = await diagnose(DUMP, 'ko');
    expect(out).toContain(
      'alpha 롤아웃은 Rollout ml/beta의 롤아웃이 기존 파드를 점유하는 동안에는 끝나지 않습니다',
    );
    // Wrapped at the terminal's width: the words are read with the line breaks taken out.
    const text = out.replace(/\n\s*/g, ' ');
    expect(text).toContain(
      '기다리는 것으로 충분할 수 있습니다: Rollout ml/beta의 롤아웃이 기존 파드를 내리면 이 롤아웃이 스스로 이어집니다. 그 업데이트가 사람이나 분석을 기다리지 않고 끝나면 컨트롤러가',
    );
    expect(out).not.toContain('cannot finish while');
  });

  it('a timed pause at the current step, or a blue-green preview promoted by itself, still ends by itself', async () => {
    const timed = withBeta('timed-pause', (b) => ({
      ...b,
      status: {
        ...b.status,
        currentStepIndex: 1,
        phase: 'Paused',
        message: 'CanaryPauseStep',
        controllerPause: true,
        pauseConditions: [{ reason: 'CanaryPauseStep', startTime: '2026-11-22T02:59:30Z' }],
      },
    }));
    expect(lead(await report(timed))?.waitsFor?.argo).toEqual(['ml/beta']);
    const blueGreen = withBeta('blue-green-auto', (b) => ({
      ...b,
      spec: { ...b.spec, strategy: { blueGreen: { activeService: 'beta', previewService: 'beta-preview' } } },
      status: { ...b.status, currentStepIndex: undefined, blueGreen: { activeSelector: 'b1' } },
    }));
    expect(lead(await report(blueGreen))?.waitsFor?.argo).toEqual(['ml/beta']);
    // Promotion by hand that a person already gave: the active selector is the new hash.
    const promoted = withBeta('blue-green-promoted', (b) => ({
      ...b,
      spec: {
        ...b.spec,
        strategy: { blueGreen: { activeService: 'beta', autoPromotionEnabled: false } },
      },
      status: { ...b.status, currentStepIndex: undefined, blueGreen: { activeSelector: 'b2' } },
    }));
    expect(lead(await report(promoted))?.waitsFor?.argo).toEqual(['ml/beta']);
  });

  it('stopping short of its end, or not read, frees nothing: "can never finish" stays and no plan says to wait', async () => {
    const canary = (b: Rollout, canaryEdit: Record<string, unknown>): Rollout => ({
      ...b,
      spec: { ...b.spec, strategy: { canary: { ...b.spec.strategy['canary'], ...canaryEdit } } },
    });
    const stops: Record<string, string> = {
      'paused-by-hand': withBeta('paused-by-hand', (b) => ({ ...b, spec: { ...b.spec, paused: true } })),
      'pause-without-duration': withBeta('pause-step', (b) =>
        canary(b, { steps: [{ setWeight: 50 }, { pause: {} }] }),
      ),
      'analysis-step': withBeta('analysis-step', (b) =>
        canary(b, { steps: [{ setWeight: 50 }, { analysis: { templates: [{ templateName: 'x' }] } }] }),
      ),
      'background-analysis': withBeta('background-analysis', (b) =>
        canary(b, { analysis: { templates: [{ templateName: 'x' }] } }),
      ),
      aborted: withBeta('aborted', (b) => ({ ...b, status: { ...b.status, abort: true } })),
      'preview-waits-for-a-person': withBeta('blue-green-manual', (b) => ({
        ...b,
        spec: { ...b.spec, strategy: { blueGreen: { activeService: 'beta', autoPromotionEnabled: false } } },
        status: { ...b.status, currentStepIndex: undefined, blueGreen: { activeSelector: 'b1' } },
      })),
      // Its newest ReplicaSet short of its replicas: the end (a canary's promotion) needs
      // another new pod first, which may never find room.
      'newest-short-of-replicas': withBeta('short', (b) => ({ ...b, spec: { ...b.spec, replicas: 2 } })),
      // Rolled back to the stable one: the controller keeps b1 and scales the newest, b2, down.
      'rollback-to-stable': withBeta('rollback', (b) => ({
        ...b,
        status: { ...b.status, currentPodHash: 'b1', currentStepIndex: 2 },
      })),
      deleting: withBeta('deleting', (b) => ({
        ...b,
        metadata: { ...b.metadata, deletionTimestamp: '2026-11-22T02:59:00Z' },
      })),
      'not-read': withBeta('not-read', () => undefined),
    };
    for (const [why, file] of Object.entries(stops)) {
      const r = await report(file);
      const found = lead(r);
      expect({ why, summary: found?.summary.includes('can never finish') }).toEqual({ why, summary: true });
      expect({ why, waitsFor: found?.waitsFor }).toEqual({ why, waitsFor: undefined });
      for (const plan of r.remediations)
        expect(plan.warnings.join(' ')).not.toContain('Waiting may be enough');
    }
  });

  it('beside a neighbour Deployment, each is said with its kind, in English and Korean', async () => {
    const MIXED = join(import.meta.dirname, '../fixtures/dumps/neighbour-rollouts-mixed.json');
    const found = (await report(MIXED)).findings.find((f) => f.waitsFor);
    expect(found?.waitsFor).toMatchObject({ names: ['ml/beta', 'ml/gamma'], argo: ['ml/beta'] });
    expect(found?.summary).toContain(
      'It can go on by itself once the rollouts of Rollout ml/beta, deployment ml/gamma remove their old pods',
    );
    const note = found?.evidence.map((e) => e.text ?? '').find((t) => t.startsWith('Old pods of'));
    expect(note).toContain(
      "a Deployment's controller removes its old pods as its rollout goes on, and the Argo Rollouts controller scales a Rollout's older ReplicaSets to 0 at the end of its update",
    );
    const ko = (await diagnose(MIXED, 'ko')).out.replace(/\n\s*/g, ' ');
    expect(ko).toContain(
      'Rollout ml/beta, deployment ml/gamma의 롤아웃이 기존 파드를 내리면 스스로 이어질 수 있습니다.',
    );
    expect(ko).toContain(
      'Deployment는 롤아웃이 진행되면서 컨트롤러가 기존 파드를 내리고, Rollout은 업데이트가 끝나면',
    );
    expect(ko).not.toMatch(/It can go on|Their newest pods/);
  });
});
