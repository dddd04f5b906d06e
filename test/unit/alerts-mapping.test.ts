import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_MAP, mergeAlertMaps, parseAlertMap } from '../../src/config/alert-map.js';
import { groupHash, workloadHash } from '../../src/queue/alert-keys.js';
import { createChannelRouter, parseNamespaceRoutes } from '../../src/config/alert-routes.js';
import { guessDeploymentFromPod, mapNotification } from '../../src/app/alerts/targets.js';
import { alert, crashLooping, notification, rolloutStuck } from '../support/alert-payloads.js';

const options = { alertMap: DEFAULT_ALERT_MAP, defaultCluster: 'default', clusters: ['default', 'prod-eu'] };

describe('mapping alerts to workloads', () => {
  it.each([
    ['KubePodCrashLooping', 'pod'],
    ['KubePodNotReady', 'pod'],
    ['KubeContainerWaiting', 'pod'],
    ['KubeDeploymentRolloutStuck', 'deployment'],
    ['KubeDeploymentReplicasMismatch', 'deployment'],
    ['KubeDeploymentGenerationMismatch', 'deployment'],
  ])('maps %s through its %s label', (alertname, kind) => {
    const labels: Record<string, string> =
      kind === 'pod'
        ? { alertname, namespace: 'shop', pod: 'web-6d4cf56db6-x7k2p', container: 'app' }
        : { alertname, namespace: 'shop', deployment: 'web', container: 'kube-state-metrics' };
    const mapped = mapNotification(notification([alert(labels)]), options);
    expect(mapped.ignored).toEqual([]);
    expect(mapped.targets).toHaveLength(1);
    const target = mapped.targets[0];
    expect(target?.deployment).toBe('web');
    expect(target?.namespace).toBe('shop');
    expect(target?.cluster).toBe('default');
    // A Deployment alert's container label is the exporter sidecar: never used.
    expect(target?.containers).toEqual(kind === 'pod' ? ['app'] : []);
    expect(target?.pods).toEqual(kind === 'pod' ? ['web-6d4cf56db6-x7k2p'] : []);
    expect(target?.guessed).toBe(kind === 'pod');
  });

  it('gives pod and Deployment alerts of one workload the same workload hash', () => {
    const a = mapNotification(notification([crashLooping('web-6d4cf56db6-x7k2p')]), options);
    const b = mapNotification(notification([rolloutStuck('web')]), options);
    expect(a.targets[0]?.workloadHash).toBe(b.targets[0]?.workloadHash);
    expect(a.targets[0]?.workloadHash).toBe(
      workloadHash({ cluster: 'default', namespace: 'shop', kind: 'Deployment', name: 'web' }),
    );
  });

  it('merges several pods of one Deployment into one target and prefers the Deployment alert', () => {
    const mapped = mapNotification(
      notification([
        crashLooping('web-6d4cf56db6-x7k2p'),
        crashLooping('web-6d4cf56db6-b9zzq', 'shop', {}),
        rolloutStuck('web'),
        crashLooping('api-7f8b9c6d5-qwrtz'),
      ]),
      options,
    );
    expect(mapped.targets).toHaveLength(2);
    const web = mapped.targets.find((t) => t.deployment === 'web');
    expect(web?.pods).toEqual(['web-6d4cf56db6-x7k2p', 'web-6d4cf56db6-b9zzq']);
    expect(web?.guessed).toBe(false);
    expect(web?.alertNames).toEqual(['KubePodCrashLooping', 'KubeDeploymentRolloutStuck']);
  });

  it('keeps a pod whose name has no Deployment shape as a pod target for the worker to resolve', () => {
    const mapped = mapNotification(notification([crashLooping('db-0')]), options);
    expect(mapped.targets[0]?.deployment).toBeUndefined();
    expect(mapped.targets[0]?.workload).toEqual({
      cluster: 'default',
      namespace: 'shop',
      kind: 'Pod',
      name: 'db-0',
    });
  });

  it('uses the cluster label to pick the cluster, and ignores clusters without a worker', () => {
    const mapped = mapNotification(
      notification([
        rolloutStuck('web', 'shop', { cluster: 'prod-eu' }),
        rolloutStuck('web', 'shop', { cluster: 'mars' }),
      ]),
      options,
    );
    expect(mapped.targets.map((t) => t.cluster)).toEqual(['prod-eu']);
    expect(mapped.ignored).toEqual([
      { alertname: 'KubeDeploymentRolloutStuck', reason: 'no worker serves cluster "mars"' },
    ]);
  });

  it('ignores unknown alerts and alerts with missing or invalid labels, with the reason', () => {
    const mapped = mapNotification(
      notification([
        alert({ alertname: 'Watchdog' }),
        alert({ alertname: 'KubePodCrashLooping', namespace: 'shop' }),
        alert({ alertname: 'KubeDeploymentRolloutStuck', namespace: 'Bad_NS', deployment: 'web' }),
        alert({ alertname: 'toString', namespace: 'shop', deployment: 'web' }),
      ]),
      options,
    );
    expect(mapped.targets).toEqual([]);
    expect(mapped.ignored.map((i) => i.reason)).toEqual([
      'alert name is not mapped to a workload',
      'missing or invalid "pod" label',
      'missing or invalid "namespace" label',
      'alert name is not mapped to a workload',
    ]);
  });

  it('is resolved only when every alert for the workload is resolved', () => {
    const resolved = { status: 'resolved' as const, endsAt: '2026-11-20T10:30:00.000Z' };
    const partly = mapNotification(
      notification([
        crashLooping('web-6d4cf56db6-x7k2p'),
        { ...crashLooping('web-6d4cf56db6-b9zzq'), ...resolved },
      ]),
      options,
    );
    expect(partly.targets[0]?.status).toBe('firing');
    expect(partly.targets[0]?.endsAt).toBeUndefined();
    const all = mapNotification(notification([{ ...rolloutStuck('web'), ...resolved }]), options);
    expect(all.targets[0]?.status).toBe('resolved');
    expect(all.targets[0]?.endsAt).toBe('2026-11-20T10:30:00.000Z');
  });

  it('hashes the groupKey into something usable in a job id and passes truncation on', () => {
    const mapped = mapNotification(notification([rolloutStuck('web')], { truncatedAlerts: 7 }), options);
    expect(mapped.groupHash).toBe(groupHash('{}/{severity="critical"}:{alertname="KubePodCrashLooping"}'));
    expect(mapped.groupHash).toMatch(/^[0-9a-f]{32}$/);
    expect(mapped.truncatedAlerts).toBe(7);
  });
});

describe('guessDeploymentFromPod', () => {
  it.each([
    ['web-6d4cf56db6-x7k2p', 'web'],
    ['my.app-v2-5f9c7b8d4-z2xq9', 'my.app-v2'],
    ['db-0', undefined],
    ['web-abcdef-x7k2p', undefined], // vowels never appear in a pod-template-hash
    ['ds-x7k2p', undefined],
  ])('%s -> %s', (pod, expected) => {
    expect(guessDeploymentFromPod(pod)).toBe(expected);
  });
});

describe('configured alert maps', () => {
  it('parses entries with and without a label and lets configuration win', () => {
    const extra = parseAlertMap(' AppDown=deployment:app , PodOOM=pod, KubePodNotReady=deployment');
    expect(extra).toEqual({
      AppDown: { kind: 'deployment', label: 'app' },
      PodOOM: { kind: 'pod', label: 'pod' },
      KubePodNotReady: { kind: 'deployment', label: 'deployment' },
    });
    const merged = mergeAlertMaps(extra);
    expect(merged['KubePodNotReady']).toEqual({ kind: 'deployment', label: 'deployment' });
    expect(merged['KubePodCrashLooping']).toEqual({ kind: 'pod', label: 'pod' });
    const mapped = mapNotification(
      notification([alert({ alertname: 'AppDown', namespace: 'shop', app: 'cart' })]),
      {
        ...options,
        alertMap: merged,
      },
    );
    expect(mapped.targets[0]?.deployment).toBe('cart');
  });

  it.each(['AppDown', 'AppDown=cronjob', 'AppDown=job', '=pod', 'AppDown=pod:bad-label', 'A=pod:x:y'])(
    'refuses "%s"',
    (text) => {
      expect(() => parseAlertMap(text)).toThrow(/bad entry/);
    },
  );
});

describe('channel routing', () => {
  it('routes by namespace and falls back to the alert channel', () => {
    const route = createChannelRouter('C0ALERTS', parseNamespaceRoutes('payments=C0PAY, search=C0SEARCH'));
    expect(route('payments')).toBe('C0PAY');
    expect(route('search')).toBe('C0SEARCH');
    expect(route('shop')).toBe('C0ALERTS');
    expect(route('constructor')).toBe('C0ALERTS');
  });

  it.each(['payments', 'payments=', 'Pay=C0PAY', 'payments=C0PAY=x', 'payments=#pay'])(
    'refuses "%s"',
    (text) => {
      expect(() => parseNamespaceRoutes(text)).toThrow(/bad entry/);
    },
  );
});
