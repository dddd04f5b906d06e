/**
 * Which objects guard a workload (src/diagnosis/guards/select-guards.ts), chosen the same
 * way for the collector and for dumps: an HPA by its scaleTargetRef's kind, name and API
 * group; a Rollout's AnalysisRuns by owner; a StatefulSet's claims by the controller's
 * naming; volumes by the claims' volumeName or the PV's claimRef; classes by name or the
 * default one for a claim that names none.
 */
import { describe, expect, it } from 'vitest';
import {
  analysisRunsOf,
  autoscalersOf,
  classesOf,
  classNamesOf,
  isClaimOfTemplates,
  volumesOfClaims,
} from '../../src/diagnosis/guards/select-guards.js';
import type { HorizontalPodAutoscaler } from '../../src/diagnosis/k8s-policy.js';
import type { PersistentVolume, StorageClass } from '../../src/diagnosis/k8s-storage.js';
import { makePvc } from '../support/k8s-builders.js';

const hpa = (
  name: string,
  kind: string,
  target: string,
  apiVersion?: string,
  namespace = 'shop',
): HorizontalPodAutoscaler => ({
  metadata: { name, namespace },
  spec: { scaleTargetRef: { kind, name: target, ...(apiVersion ? { apiVersion } : {}) }, maxReplicas: 3 },
});

describe('select-guards', () => {
  it('keeps the HPAs that target the workload, by kind, name, group and namespace', () => {
    const all = [
      hpa('a', 'Rollout', 'web', 'argoproj.io/v1alpha1'),
      hpa('b', 'Deployment', 'web', 'apps/v1'),
      hpa('c', 'Rollout', 'web'),
      hpa('d', 'Rollout', 'web', 'example.com/v1'),
      hpa('e', 'Rollout', 'web', 'argoproj.io/v1alpha1', 'other'),
    ];
    expect(
      autoscalersOf({ kind: 'Rollout', namespace: 'shop', name: 'web' }, all).map((h) => h.metadata.name),
    ).toEqual(['a', 'c']);
  });

  it("keeps a Rollout's own AnalysisRuns, by uid, or by kind and name when a dump has no uid", () => {
    const run = (name: string, owner: object) => ({
      metadata: { name, namespace: 'shop', ownerReferences: [owner] },
    });
    const runs = [
      run('mine', { kind: 'Rollout', name: 'web', uid: 'u1' }),
      run('other', { kind: 'Rollout', name: 'web', uid: 'u2' }),
    ] as never[];
    expect(
      analysisRunsOf({ metadata: { name: 'web', namespace: 'shop', uid: 'u1' } }, runs, 'Rollout').map(
        (r) => r.metadata.name,
      ),
    ).toEqual(['mine']);
    const named = [run('by-name', { kind: 'Rollout', name: 'web' })] as never[];
    expect(analysisRunsOf({ metadata: { name: 'web', namespace: 'shop' } }, named, 'Rollout')).toHaveLength(
      1,
    );
  });

  it("names a StatefulSet's claims as the controller does, and nothing like them", () => {
    expect(isClaimOfTemplates('data-ledger-0', 'ledger', ['data'])).toBe(true);
    expect(isClaimOfTemplates('data-ledger-12', 'ledger', ['data'])).toBe(true);
    expect(isClaimOfTemplates('data-ledger-backup', 'ledger', ['data'])).toBe(false);
    expect(isClaimOfTemplates('data-ledger2-0', 'ledger', ['data'])).toBe(false);
  });

  it('finds volumes by volumeName or claimRef, and classes by name or the default', () => {
    const bound = makePvc('a', 'shop');
    const byRef = { ...makePvc('b', 'shop'), spec: { accessModes: ['ReadWriteOnce'] } };
    const pvs: PersistentVolume[] = [
      { metadata: { name: 'pv-a' } },
      { metadata: { name: 'x' }, spec: { claimRef: { namespace: 'shop', name: 'b' } } },
      { metadata: { name: 'y' }, spec: { claimRef: { namespace: 'other', name: 'b' } } },
    ];
    expect(volumesOfClaims([bound, byRef], pvs).map((v) => v.metadata.name)).toEqual(['pv-a', 'x']);
    const classes: StorageClass[] = [
      { metadata: { name: 'fast' } },
      { metadata: { name: 'std', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } },
    ];
    const named = { ...bound, spec: { ...bound.spec, storageClassName: 'fast' } };
    expect(classesOf(classes, classNamesOf([named], [])).map((c) => c.metadata.name)).toEqual(['fast']);
    expect(classesOf(classes, classNamesOf([bound], [])).map((c) => c.metadata.name)).toEqual(['std']);
  });
});
