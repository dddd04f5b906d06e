/**
 * `scan` lists the live node exclusions rollout-doctor set (issue 65.5), with their age
 * and end, in text (English and Korean) and in `-o json` (fields added, none renamed).
 */
import { describe, expect, it } from 'vitest';
import { renderScan } from '../../src/cli/commands/scan.js';
import { scanDump } from '../../src/cli/scan-dump.js';
import { scanExclusion, type ScanExclusion } from '../../src/kube/read/exclusion-reads.js';
import type { ScanReport } from '../../src/kube/read/scan.js';
import type { ExclusionRecord } from '../../src/remediation/exclusion-record.js';
import { recordAnnotations } from '../../src/remediation/exclusion-record.js';
import { exclusionWords } from '../../src/remediation/exclusion-words.js';
import { LANGS } from '../../src/i18n/lang.js';
import { makeDeployment } from '../support/k8s-builders.js';

const RECORD: ExclusionRecord = {
  values: { 'kubernetes.io/hostname': ['node-b'] },
  nodes: [{ name: 'node-b', uid: 'u-b' }],
  reason: { finding: 'CrashLoopOnNode', fields: ['kernelVersion'], bad: [['6.8.0-1009-aws']] },
  setAt: '2026-11-27T10:00:00Z',
  expiresAt: '2026-11-28T10:00:00Z',
};
const live = (record: ExclusionRecord = RECORD) => ({
  target: { kind: 'Deployment' as const, namespace: 'shop', name: 'checkout' },
  uid: 'u',
  generation: 3,
  affinity: undefined,
  annotations: recordAnnotations(record),
  record,
});
const at = (iso: string) => Date.parse(iso);

function report(exclusions: ScanExclusion[]): ScanReport {
  return {
    scope: { namespace: 'shop', allNamespaces: false },
    scanned: 1,
    diagnosed: 0,
    entries: [],
    nodesComplete: true,
    accessProblems: [],
    exclusions,
  };
}

describe('scan: live exclusions', () => {
  it('gives each its age and end in seconds, and its state', () => {
    expect(scanExclusion(live(), at('2026-11-27T13:30:00Z'))).toEqual({
      kind: 'Deployment',
      namespace: 'shop',
      name: 'checkout',
      values: { 'kubernetes.io/hostname': ['node-b'] },
      nodes: ['node-b'],
      setAt: '2026-11-27T10:00:00Z',
      expiresAt: '2026-11-28T10:00:00Z',
      state: 'live',
      ageSeconds: 3.5 * 3600,
      expiresInSeconds: 20.5 * 3600,
    });
    expect(scanExclusion(live(), at('2026-11-28T11:00:00Z'))).toMatchObject({
      state: 'expired',
      expiresInSeconds: -3600,
    });
    const forever = scanExclusion(live({ ...RECORD, expiresAt: 'never' }), at('2030-01-01T00:00:00Z'));
    expect(forever.state).toBe('until-removed');
    expect(forever).not.toHaveProperty('expiresInSeconds');
  });

  it('lists them in text, in English and in Korean', () => {
    const rows = [
      scanExclusion(live(), at('2026-11-27T13:30:00Z')),
      scanExclusion(
        {
          ...live({ ...RECORD, expiresAt: 'never' }),
          target: { kind: 'Deployment', namespace: 'shop', name: 'cart' },
        },
        at('2026-11-29T10:00:00Z'),
      ),
    ];
    const en = renderScan(report(rows), 'en');
    expect(en).toContain('Node exclusions rollout-doctor set (2):');
    expect(en).toMatch(
      /shop\/deployment\/checkout\s+kubernetes\.io\/hostname NotIn node-b\s+3h30m\s+in 20h30m/,
    );
    expect(en).toMatch(/shop\/deployment\/cart .*2d\s+until removed/);
    const ko = renderScan(report(rows), 'ko');
    expect(ko).toContain('rollout-doctor가 설정한 노드 제외 (2개):');
    expect(ko).toContain('20h30m 후');
    expect(ko).toContain('제거할 때까지');
    expect(renderScan(report([]), 'en')).not.toContain('Node exclusions');
  });

  it('says an expired one awaits its removal', () => {
    const text = renderScan(report([scanExclusion(live(), at('2026-11-28T11:00:00Z'))]), 'en');
    expect(text).toContain('expired 1h ago, removal pending');
  });

  it('reads them from a dump too, as of the dump', () => {
    const d = makeDeployment('checkout', { namespace: 'shop' });
    d.metadata.annotations = { ...d.metadata.annotations, ...recordAnnotations(RECORD) };
    const scanned = scanDump([d as never], { allNamespaces: false, namespace: 'shop' });
    expect(scanned.exclusions?.map((e) => `${e.namespace}/${e.name} ${e.nodes.join(',')}`)).toEqual([
      'shop/checkout node-b',
    ]);
    expect(scanned.exclusions?.[0]?.values).toEqual(RECORD.values);
  });

  it('has every message in every language', () => {
    for (const [key, message] of Object.entries(exclusionWords))
      for (const lang of LANGS)
        expect(typeof (message as Record<string, unknown>)[lang], `${key} ${lang}`).toBe('function');
  });
});
