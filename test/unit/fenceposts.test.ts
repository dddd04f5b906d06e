import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  resolveFenceposts,
  scaleIntOrPercent,
  surgesWithoutUnavailability,
} from '../../src/diagnosis/base/fenceposts.js';
import { resolveStrategy } from '../../src/diagnosis/workloads/deployment/deployment-strategy.js';
import { makeDeployment } from '../support/k8s-builders.js';
import { withLastApplied } from '../support/rollout-scenarios.js';

describe('resolveFenceposts', () => {
  it.each([
    // [maxSurge, maxUnavailable, replicas, surge, unavailable]
    ['25%', '25%', 1, 1, 0],
    ['25%', '25%', 4, 1, 1],
    ['25%', '25%', 3, 1, 0],
    ['25%', '25%', 10, 3, 2],
    ['25%', '25%', 0, 0, 1],
    [0, 0, 5, 0, 1],
    [0, '0%', 1, 0, 1],
    [1, 0, 1, 1, 0],
    ['100%', '100%', 7, 7, 7],
    ['33%', '33%', 3, 1, 0],
    ['50%', '50%', 3, 2, 1],
    [2, '10%', 9, 2, 0],
  ] as const)('maxSurge %s, maxUnavailable %s at %i replicas → %i / %i', (s, u, r, surge, unavailable) => {
    expect(resolveFenceposts(s, u, r)).toEqual({ surge, unavailable });
  });

  it('rejects strings that are not percentages, as the controller does', () => {
    expect(() => scaleIntOrPercent('1', 3, true)).toThrow(/percentage/);
    expect(() => scaleIntOrPercent('abc%', 3, true)).toThrow();
  });

  it('surge rounds up, unavailable rounds down, never both zero (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 5000 }),
        (p, q, r) => {
          const { surge, unavailable } = resolveFenceposts(`${p}%`, `${q}%`, r);
          expect(surge * 100).toBeGreaterThanOrEqual(p * r);
          expect((surge - 1) * 100).toBeLessThan(p * r);
          expect(surge + unavailable).toBeGreaterThan(0);
          const floor = Math.floor((q * r) / 100);
          expect(unavailable).toBe(surge === 0 && floor === 0 ? 1 : floor);
          expect(unavailable * 100).toBeLessThanOrEqual(Math.max(q * r, 100));
        },
      ),
    );
  });

  it('integers pass through unscaled (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 500 }),
        (s, u, r) => {
          const result = resolveFenceposts(s, u, r);
          expect(result.surge).toBe(s);
          expect(result.unavailable).toBe(s === 0 && u === 0 ? 1 : u);
        },
      ),
    );
  });

  it('the default 25%/25% surges without unavailability exactly for 1 to 3 replicas', () => {
    for (let replicas = 1; replicas <= 40; replicas += 1) {
      const strategy = resolveStrategy(makeDeployment('x', { replicas }));
      expect(surgesWithoutUnavailability(strategy)).toBe(replicas <= 3);
    }
  });
});

describe('resolveStrategy sources', () => {
  it('absent strategy (a hand-written manifest) resolves to the defaults, marked default', () => {
    const d = makeDeployment('x');
    delete d.spec.strategy;
    expect(resolveStrategy(d)).toEqual({
      type: 'RollingUpdate',
      maxSurge: { raw: '25%', value: 1, source: 'default' },
      maxUnavailable: { raw: '25%', value: 0, source: 'default' },
    });
  });

  it('Recreate has no fenceposts', () => {
    expect(resolveStrategy(makeDeployment('x', { strategy: { type: 'Recreate' } }))).toEqual({
      type: 'Recreate',
      maxSurge: null,
      maxUnavailable: null,
    });
  });

  it('25% with no evidence is the default value of unknown origin; anything else is explicit', () => {
    const d = makeDeployment('x', {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
    });
    const s = resolveStrategy(d);
    expect(s.maxSurge?.source).toBe('unknown');
    expect(s.maxUnavailable).toEqual({ raw: 1, value: 1, source: 'explicit' });
  });

  it('last-applied-configuration without the field means the server filled the default in', () => {
    const d = withLastApplied(makeDeployment('x'), { replicas: 1 });
    const s = resolveStrategy(d);
    expect(s.maxSurge?.source).toBe('default');
    expect(s.maxUnavailable?.source).toBe('default');
  });

  it('last-applied-configuration that sets 25% means the user chose it', () => {
    const d = withLastApplied(makeDeployment('x'), {
      strategy: { rollingUpdate: { maxSurge: '25%' } },
    });
    const s = resolveStrategy(d);
    expect(s.maxSurge?.source).toBe('explicit');
    expect(s.maxUnavailable?.source).toBe('default');
  });

  const owning = (manager: string, operation: 'Apply' | 'Update', fields: string[]) => ({
    manager,
    operation,
    fieldsV1: {
      'f:spec': {
        'f:strategy': { 'f:rollingUpdate': Object.fromEntries(fields.map((f) => [`f:${f}`, {}])) },
      },
    },
  });

  it('managedFields: a field no manager owns was defaulted by the server', () => {
    const d = makeDeployment('x');
    Object.assign(d.metadata, { managedFields: [owning('helm', 'Update', ['maxUnavailable'])] });
    expect(resolveStrategy(d).maxSurge?.source).toBe('default');
  });

  it('managedFields: an Update manager owning 25% proves nothing (kubectl create owns defaulted fields)', () => {
    // What kubectl create of a manifest without a strategy leaves: the creator's Update
    // entry owns the strategy the API server defaulted.
    const d = makeDeployment('x');
    Object.assign(d.metadata, {
      managedFields: [owning('kubectl-create', 'Update', ['maxSurge', 'maxUnavailable'])],
    });
    const s = resolveStrategy(d);
    expect(s.maxSurge?.source).toBe('unknown');
    expect(s.maxUnavailable?.source).toBe('unknown');
  });

  it('managedFields: a server-side apply owning 25% set it (appliers own only what they send)', () => {
    const d = makeDeployment('x');
    Object.assign(d.metadata, {
      managedFields: [
        owning('kubectl-create', 'Update', ['maxSurge', 'maxUnavailable']),
        owning('argocd-controller', 'Apply', ['maxUnavailable']),
      ],
    });
    const s = resolveStrategy(d);
    expect(s.maxSurge?.source).toBe('unknown');
    expect(s.maxUnavailable?.source).toBe('explicit');
  });

  it('resolves against spec.replicas, defaulting to 1', () => {
    const d = makeDeployment('x', { replicas: 10 });
    expect([resolveStrategy(d).maxSurge?.value, resolveStrategy(d).maxUnavailable?.value]).toEqual([3, 2]);
    delete d.spec.replicas;
    expect([resolveStrategy(d).maxSurge?.value, resolveStrategy(d).maxUnavailable?.value]).toEqual([1, 0]);
  });
});
