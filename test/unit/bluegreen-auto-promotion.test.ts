/**
 * A blue-green pause under autoPromotionSeconds ends by itself (attack round 13): Argo's
 * reconcileBlueGreenPause removes the BlueGreenPause once its startTime plus those seconds
 * has passed, and the preview becomes active with nobody acting. It read "it waits for a
 * person, not for the cluster". Paused at 02:50 with 900 s, read at 03:00: the switch comes
 * at 03:05. Without autoPromotionSeconds the pause does wait for a person, and so it does
 * with autoPromotionEnabled false, which makes the controller ignore the seconds (pause.go
 * CompletedBlueGreenPause; attack round 14: it read "goes on by itself", exit 0).
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('argo-bluegreen-auto-promotion.json');

const run = async (lang: string, edit?: (items: DumpItem[]) => DumpItem[]) =>
  (await dump.cli(['diagnose', 'rollout/web', '-n', 'shop', '--lang', lang], edit)).stdout.replace(
    /\s+/g,
    ' ',
  );

/** The same Rollout without autoPromotionSeconds. */
const manual = (items: DumpItem[]): DumpItem[] =>
  items.map((i) => {
    if (i.kind !== 'Rollout') return i;
    const spec = i.spec as { strategy: { blueGreen: Record<string, unknown> } };
    const { autoPromotionSeconds: _gone, ...blueGreen } = spec.strategy.blueGreen;
    return { ...i, spec: { ...spec, strategy: { blueGreen } } };
  });

describe('a blue-green pause under autoPromotionSeconds', () => {
  it('ends by itself: the switch time, and that the preview is promoted without anyone acting', async () => {
    const en = await run('en');
    expect(en).toContain(
      'a timed pause of 15m; the controller goes on by itself at 2026-11-22 03:05 UTC (in 5m)',
    );
    expect(en).toContain('promotes the preview by itself once the pause has lasted that long');
    expect(en).not.toContain('it waits for a person');
    const ko = await run('ko');
    expect(ko).toContain('컨트롤러가 스스로 프리뷰를 승격합니다');
    expect(ko).toContain('프리뷰를 승격하고 활성 Service가 새 버전으로 전환됩니다');
  });

  it('the other arm: without it, the pause waits for a person', async () => {
    const en = await run('en', manual);
    expect(en).toContain('(BlueGreenPause): it waits for a person, not for the cluster.');
    expect(en).not.toContain('goes on by itself');
  });

  it('with autoPromotionEnabled false the seconds are ignored: the pause waits for a person', async () => {
    const off = (items: DumpItem[]): DumpItem[] =>
      items.map((i) => {
        if (i.kind !== 'Rollout') return i;
        const spec = i.spec as { strategy: { blueGreen: Record<string, unknown> } };
        const blueGreen = { ...spec.strategy.blueGreen, autoPromotionEnabled: false };
        return { ...i, spec: { ...spec, strategy: { blueGreen } } };
      });
    const en = await run('en', off);
    expect(en).toContain('(BlueGreenPause): it waits for a person, not for the cluster.');
    expect(en).not.toContain('goes on by itself');
  });

  it('beside an inconclusive analysis the seconds do not end it: the controller only syncs replicas, a person decides', async () => {
    const inconclusive = (items: DumpItem[]): DumpItem[] =>
      items.map((i) => {
        if (i.kind !== 'Rollout') return i;
        const status = i['status'] as { pauseConditions: { reason: string; startTime: string }[] };
        const [first] = status.pauseConditions;
        const added = { reason: 'InconclusiveAnalysisRun', startTime: first?.startTime ?? '' };
        return { ...i, status: { ...status, pauseConditions: [...status.pauseConditions, added] } };
      });
    const en = await run('en', inconclusive);
    expect(en).toContain('Paused: the rollout waits for a person');
    expect(en).not.toContain('goes on by itself');
  });
});
