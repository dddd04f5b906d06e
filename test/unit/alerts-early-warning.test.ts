import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEarlyWarningWatch, type ScanHit } from '../../src/worker/early-warning/safety-net.js';
import { scanHits } from '../../src/worker/early-warning/watch.js';
import { diagnosisDedupId, workloadHash } from '../../src/queue/alert-keys.js';

const logger = { info: () => undefined, warn: () => undefined };

function hit(namespace: string, name: string, code: string): ScanHit {
  return { namespace, name, code, summary: `${code} on ${name}` };
}

function watch(scans: Record<string, ScanHit[] | Error>) {
  const queued: { target: { namespace: string; name: string }; dedup: { id: string; ttlMs: number } }[] = [];
  const links: { jobId: string; hash: string }[] = [];
  const w = createEarlyWarningWatch({
    cluster: 'prod',
    namespaces: Object.keys(scans),
    intervalMs: 20,
    windowMs: 600_000,
    logger,
    scan: async (ns) => {
      const result = scans[ns];
      if (result instanceof Error) throw result;
      return result ?? [];
    },
    enqueueDiagnosis: async (target, dedup) => {
      queued.push({ target, dedup });
      return `diagnose.${target.namespace}.${target.name}`;
    },
    linkJob: async (jobId, hash) => void links.push({ jobId, hash }),
  });
  return { w, queued, links };
}

describe('early-warning watch', () => {
  it('queues surge deadlocks and node-local crash loops with the alert key scheme, and nothing else', async () => {
    const { w, queued, links } = watch({
      shop: [
        hit('shop', 'tracker', 'RolloutSurgeDeadlock'),
        hit('shop', 'tracker', 'Unschedulable'),
        hit('shop', 'api', 'CrashLoop'),
        hit('shop', 'web', 'CrashLoopOnNode'),
        hit('shop', 'gpu', 'RolloutAtRisk'),
      ],
    });
    expect(await w.runOnce()).toBe(2);
    expect(queued.map((q) => q.target.name)).toEqual(['tracker', 'web']);
    const tracker = workloadHash({ cluster: 'prod', namespace: 'shop', kind: 'Deployment', name: 'tracker' });
    // Same dedup id as an alert for the same workload: one diagnosis per window whatever the source.
    expect(queued[0]?.dedup).toEqual({ id: diagnosisDedupId(tracker), ttlMs: 600_000 });
    expect(links[0]).toEqual({ jobId: 'diagnose.shop.tracker', hash: tracker });
  });

  it('keeps watching the other namespaces when one scan fails', async () => {
    const { w, queued } = watch({
      broken: new Error('forbidden'),
      shop: [hit('shop', 'web', 'CrashLoopOnNode')],
    });
    expect(await w.runOnce()).toBe(1);
    expect(queued).toHaveLength(1);
  });

  describe('on a fake clock', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('runs a pass at start and one per interval, and none after stop', async () => {
      vi.useFakeTimers();
      const { w, queued } = watch({ shop: [hit('shop', 'web', 'CrashLoopOnNode')] });
      w.start();
      await vi.advanceTimersByTimeAsync(0);
      expect(queued).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(20);
      expect(queued).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(20);
      expect(queued).toHaveLength(3);
      await w.stop();
      await vi.advanceTimersByTimeAsync(200);
      expect(queued).toHaveLength(3);
      // Stopped, it holds no timer and no pass: start() runs a pass at once again (it would
      // return without one while either was left). Not vi.getTimerCount(): in the shared
      // suite another file's client may still set a timer of its own (a Redis reconnect).
      w.start();
      await vi.advanceTimersByTimeAsync(0);
      expect(queued).toHaveLength(4);
      await w.stop();
    });

    it('is off without namespaces', async () => {
      vi.useFakeTimers();
      const { w, queued } = watch({});
      w.start();
      await vi.advanceTimersByTimeAsync(200);
      await w.stop();
      expect(queued).toEqual([]);
    });
  });

  it('flattens scan reports into hits', () => {
    const hits = scanHits({
      entries: [
        {
          namespace: 'shop',
          name: 'tracker',
          findings: [
            { code: 'RolloutSurgeDeadlock', summary: 'deadlock' },
            { code: 'Unschedulable', summary: 'pending' },
          ],
        },
      ],
    });
    expect(hits.map((h) => h.code)).toEqual(['RolloutSurgeDeadlock', 'Unschedulable']);
  });
});
