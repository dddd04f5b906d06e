/**
 * Issue 67.2: an announcement for a cluster the app does not serve opens nothing, even
 * one that reached the alert lane past the mover (src/app/notify/announce-mover.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { handleNotify } from '../../src/app/notify/handle-notify.js';
import type { AppServices } from '../../src/app/services.js';
import type { NotifyJob } from '../../src/queue/schemas.js';

const warned = (cluster: string): NotifyJob => ({
  kind: 'admission-warning',
  cluster,
  workload: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
  user: 'alice',
  code: 'RolloutSurgeDeadlock',
  at: '2026-11-26T00:00:00.000Z',
});

describe('a warned apply in the alert lane', () => {
  it('opens a thread for a cluster the app serves, and refuses any other', async () => {
    const admissionWarning = vi.fn(async () => 'opened' as const);
    const services = {
      config: { clusters: ['default'] },
      alerts: { admissionWarning },
      logger: { info: () => undefined, warn: () => undefined },
    } as unknown as AppServices;
    await expect(handleNotify(services, warned('elsewhere'), {})).rejects.toThrow(
      'cluster elsewhere, which this app does not serve',
    );
    expect(admissionWarning).not.toHaveBeenCalled();
    await handleNotify(services, warned('default'), {});
    expect(admissionWarning).toHaveBeenCalledTimes(1);
  });
});
