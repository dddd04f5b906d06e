/**
 * What an apply stores for a field the manifest leaves out (src/check/stored-fields.ts,
 * issue 64.1), one arm per way of knowing: kubectl's last-applied configuration with the
 * field and without it, a server-side apply entry that owns it, one that does not, one
 * that owns it beside another manager, nothing that says, and a live value that is the
 * default (nothing to decide).
 */
import { describe, expect, it } from 'vitest';
import type { WorkloadObject } from '../../src/diagnosis/snapshot/types.js';
import { omittedFields, withStoredFields } from '../../src/check/stored-fields.js';
import { makeDeployment } from '../support/k8s-builders.js';

const STRATEGY = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };

/** The live Deployment with a non-default strategy, and `meta` for who wrote what. */
function live(
  meta: { lastApplied?: object; managedFields?: object[] },
  strategy: object = STRATEGY,
): WorkloadObject {
  const d = makeDeployment('web', { namespace: 'shop', replicas: 4 });
  d.spec.strategy = strategy as never;
  if (meta.lastApplied)
    d.metadata.annotations = {
      ...d.metadata.annotations,
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(meta.lastApplied),
    };
  if (meta.managedFields) (d.metadata as { managedFields?: object[] }).managedFields = meta.managedFields;
  return d as unknown as WorkloadObject;
}

/** The manifest: the same Deployment without strategy. */
function manifest(): WorkloadObject {
  const d = makeDeployment('web', { namespace: 'shop', replicas: 4 });
  delete (d.spec as { strategy?: unknown }).strategy;
  return d as unknown as WorkloadObject;
}

const ssa = (manager: string, spec: object, operation = 'Apply'): object => ({
  manager,
  operation,
  apiVersion: 'apps/v1',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:spec': spec },
});

describe('a manifest that leaves out strategy', () => {
  it("kubectl's last-applied never listed it: the apply keeps the live strategy", () => {
    const [field] = omittedFields('Deployment', manifest(), live({ lastApplied: { spec: { replicas: 4 } } }));
    expect(field).toMatchObject({ field: 'strategy', stored: 'live', live: STRATEGY });
  });

  it("kubectl's last-applied listed it: the apply removes it and the default applies", () => {
    const [field] = omittedFields(
      'Deployment',
      manifest(),
      live({ lastApplied: { spec: { replicas: 4, strategy: STRATEGY } } }),
    );
    expect(field).toMatchObject({ field: 'strategy', stored: 'default' });
  });

  it('a server-side apply entry that owns it: removed; one that does not: kept', () => {
    const owned = live({ managedFields: [ssa('kubectl', { 'f:replicas': {}, 'f:strategy': {} })] });
    expect(omittedFields('Deployment', manifest(), owned)[0]?.stored).toBe('default');
    const notOwned = live({
      managedFields: [
        ssa('kubectl', { 'f:replicas': {} }),
        ssa('kubectl-patch', { 'f:strategy': {} }, 'Update'),
      ],
    });
    expect(omittedFields('Deployment', manifest(), notOwned)[0]?.stored).toBe('live');
  });

  it('owned by the applier and held by another manager too: the apply leaves it', () => {
    const shared = live({
      managedFields: [
        ssa('kubectl', { 'f:replicas': {}, 'f:strategy': {} }),
        ssa('kubectl-patch', { 'f:strategy': { 'f:rollingUpdate': {} } }, 'Update'),
      ],
    });
    const [field] = omittedFields('Deployment', manifest(), shared);
    expect(field?.stored).toBe('live');
    expect(field?.why).toContain('kubectl-patch also holds it');
  });

  it('nothing records an owner: not known, never the default silently', () => {
    const [field] = omittedFields('Deployment', manifest(), live({}));
    expect(field?.stored).toBe('unknown');
  });

  it('a live strategy that is the default: nothing to decide', () => {
    const defaulted = live(
      {},
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    );
    expect(omittedFields('Deployment', manifest(), defaulted)).toEqual([]);
  });

  it('a manifest that sets strategy: nothing omitted, whatever the live one is', () => {
    const given = { ...manifest(), spec: { ...manifest().spec, strategy: STRATEGY } } as WorkloadObject;
    expect(omittedFields('Deployment', given, live({}))).toEqual([]);
  });
});

describe('a Helm release (a three-way merge against its last release, not managedFields)', () => {
  /** The live Deployment a Helm release made: its annotations, and who wrote what. */
  const helmLive = (managedFields: object[]): WorkloadObject => {
    const d = live({ managedFields });
    d.metadata.annotations = {
      ...d.metadata.annotations,
      'meta.helm.sh/release-name': 'web',
      'meta.helm.sh/release-namespace': 'shop',
    };
    return d;
  };
  const omitted = (managedFields: object[]) =>
    omittedFields('Deployment', manifest(), helmLive(managedFields))[0];

  it("helm's entry holds it and the chart drops it: removed, whoever else holds it too", () => {
    expect(omitted([ssa('helm', { 'f:replicas': {}, 'f:strategy': {} }, 'Update')])?.stored).toBe('default');
    const shared = omitted([
      ssa('helm', { 'f:replicas': {}, 'f:strategy': {} }, 'Update'),
      ssa('kubectl-patch', { 'f:strategy': { 'f:rollingUpdate': {} } }, 'Update'),
    ]);
    expect(shared?.stored).toBe('default');
  });

  it('no one but helm ever wrote it elsewhere: kept; another manager holds it now (kubectl edit): not known', () => {
    expect(omitted([ssa('helm', { 'f:replicas': {} }, 'Update')])?.stored).toBe('live');
    const edited = omitted([
      ssa('helm', { 'f:replicas': {} }, 'Update'),
      ssa('kubectl-edit', { 'f:strategy': {} }, 'Update'),
    ]);
    expect(edited).toMatchObject({ stored: 'unknown' });
    expect(edited?.why).toContain('kubectl-edit holds it now, and helm (');
    expect(edited?.why).toContain("merges against its last release's manifest");
  });
});

describe('a manifest that sets the strategy and its rollingUpdate without maxUnavailable', () => {
  /** The manifest: strategy RollingUpdate with maxSurge 1 and no maxUnavailable (25% at 4 replicas: 1). */
  const partial = (): WorkloadObject => {
    const d = manifest();
    d.spec = { ...d.spec, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } as never;
    return d;
  };
  const lastApplied = {
    spec: { replicas: 4, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } },
  };

  it('kubectl last applied it without maxUnavailable: the apply keeps the live 0 (no patch strategy inside rollingUpdate)', () => {
    const fields = omittedFields('Deployment', partial(), live({ lastApplied }));
    expect(fields).toEqual([
      expect.objectContaining({ field: 'strategy.rollingUpdate.maxUnavailable', live: 0, stored: 'live' }),
    ]);
  });

  it('kubectl last applied it with maxUnavailable 0 and this one drops it: the default (25%) applies', () => {
    const fields = omittedFields(
      'Deployment',
      partial(),
      live({ lastApplied: { spec: { replicas: 4, strategy: STRATEGY } } }),
    );
    expect(fields.map((f) => [f.field, f.stored])).toEqual([
      ['strategy.rollingUpdate.maxUnavailable', 'default'],
    ]);
  });

  it('a live value the default reads the same (maxUnavailable 1 of 4 = 25%): nothing to decide', () => {
    const same = live(
      { lastApplied },
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } },
    );
    expect(omittedFields('Deployment', partial(), same)).toEqual([]);
  });

  it('kept, the candidate the rollout is judged with carries the live value, the manifest untouched', () => {
    const written = partial();
    const [field] = omittedFields('Deployment', written, live({ lastApplied }));
    const stored = withStoredFields(written, field ? [field] : [], () => true);
    expect(stored.spec).toMatchObject({ strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } });
    expect((written.spec as { strategy?: { rollingUpdate?: object } }).strategy?.rollingUpdate).toEqual({
      maxSurge: 1,
    });
  });
});

describe('a manifest that leaves out replicas', () => {
  const withoutReplicas = (): WorkloadObject => {
    const d = manifest();
    d.spec = { ...d.spec, strategy: STRATEGY } as never;
    delete (d.spec as { replicas?: number }).replicas;
    return d;
  };

  it('kubectl last applied it: the apply removes it and the API stores 1, which the rollout is judged at', () => {
    const fields = omittedFields(
      'Deployment',
      withoutReplicas(),
      live({ lastApplied: { spec: { replicas: 4, strategy: STRATEGY } } }),
    );
    expect(fields.map((f) => [f.field, f.stored])).toEqual([['replicas', 'default']]);
    const stored = withStoredFields(withoutReplicas(), fields, (f) => f.stored === 'live');
    expect((stored.spec as { replicas?: number }).replicas).toBe(1);
  });

  it('server-side applied with it, an HPA holding it too through the scale subresource: the apply leaves it', () => {
    const shared = live({
      managedFields: [
        ssa('kubectl', { 'f:replicas': {}, 'f:strategy': {} }),
        {
          ...(ssa('kube-controller-manager', { 'f:replicas': {} }, 'Update') as object),
          subresource: 'scale',
        },
      ],
    });
    const [field] = omittedFields('Deployment', withoutReplicas(), shared);
    expect(field).toMatchObject({ field: 'replicas', stored: 'live' });
  });

  it('kubectl never applied it (an HPA owns the count): the apply keeps the live count', () => {
    const fields = omittedFields(
      'Deployment',
      withoutReplicas(),
      live({ lastApplied: { spec: { strategy: STRATEGY } } }),
    );
    expect(fields.map((f) => [f.field, f.stored])).toEqual([['replicas', 'live']]);
    const stored = withStoredFields(withoutReplicas(), fields, (f) => f.stored === 'live');
    expect((stored.spec as { replicas?: number }).replicas).toBe(4);
  });
});
