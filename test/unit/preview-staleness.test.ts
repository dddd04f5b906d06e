import { describe, expect, it } from 'vitest';
import { normalizedPreviewText, previewTextDiff } from '../../scripts/preview/staleness.js';

describe('preview screenshot staleness (issue 31.3)', () => {
  it('two runs of the same rendering compare equal: times, plan ids and generated names are placeholders', () => {
    const run = (time: string, hash: string, pod: string, plan: string) =>
      normalizedPreviewText(
        `rollout-doctor APP ${time.slice(11, 16)}\n✅ set-rolling-update approved by @U0LEAD at ${time.slice(0, 16).replace('T', ' ')} UTC; rolled out\n` +
          `held by vision-object-tracker-${hash}-${pod} · captured ${time}\nplan set-rolling-update-${plan}\n` +
          `{"op":"test","path":"/metadata/uid","value":"${plan.slice(0, 8)}-0000-4000-8000-${plan.slice(0, 12)}"}`,
      );
    const a = run('2026-11-23T23:32:49.821Z', 'c4b7785b7', 'k4kwm', 'e27befbdaf447181');
    const b = run('2026-11-24T01:02:03.004Z', '69d5b5f8dd', 'c78dk', '0123456789abcdef');
    expect(a).toBe(b);
    expect(previewTextDiff(a, b)).toEqual([]);
  });

  it('a changed line of the rendering shows as the committed and the current line', () => {
    const committed = normalizedPreviewText('🔴 RolloutSurgeDeadlock\n✅ approved; applying…');
    const now = normalizedPreviewText(
      '✅ Resolved (rolled out): ~RolloutSurgeDeadlock~\n✅ approved; rolled out',
    );
    expect(previewTextDiff(committed, now)).toEqual([
      '- 🔴 RolloutSurgeDeadlock',
      '- ✅ approved; applying…',
      '+ ✅ Resolved (rolled out): ~RolloutSurgeDeadlock~',
      '+ ✅ approved; rolled out',
    ]);
  });
});
