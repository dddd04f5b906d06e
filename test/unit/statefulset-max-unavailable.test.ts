/**
 * A StatefulSet's maxUnavailable is honoured only where the MaxUnavailableStatefulSet
 * gate is on, whose default changed within 1.35 (on in 1.35.0–1.35.3, off from 1.35.4
 * after kubernetes#137409, off in 1.36, on from 1.37): the collector reads the server's
 * version only for a StatefulSet that sets the field, and RolloutStuck says which applies.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { StatefulSet } from '../../src/diagnosis/k8s-workloads.js';
import { maxUnavailableGateDefault } from '../../src/diagnosis/workloads/statefulset/max-unavailable-gate.js';
import type { ApiCall } from '../../src/kube/api-paths.js';
import type { KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { makeNode } from '../support/k8s-builders.js';
import {
  makeStatefulSet,
  makeStatefulSetSnapshot,
  makeStsPod,
  makeStsRevision,
} from '../support/statefulset-builders.js';

const GOOD = '65f9b98df4';
const BAD = '5f8cdcfd98';
const LEDGER = { kind: 'StatefulSet' as const, namespace: 'payments', name: 'ledger' };

/** The ledger stuck at ledger-2 of the update revision, `maxUnavailable` set or not. */
function ledger(maxUnavailable?: number): {
  sts: StatefulSet;
  pods: Pod[];
  revisions: ReturnType<typeof makeStsRevision>[];
} {
  const sts = makeStatefulSet('ledger', {
    status: {
      observedGeneration: 3,
      replicas: 3,
      readyReplicas: 2,
      currentReplicas: 2,
      updatedReplicas: 1,
      currentRevision: `ledger-${GOOD}`,
      updateRevision: `ledger-${BAD}`,
    },
  });
  if (maxUnavailable !== undefined)
    sts.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable } };
  const good = makeStsRevision(sts, GOOD, 1);
  const bad = makeStsRevision(sts, BAD, 2);
  const pods = [
    makeStsPod(sts, good, 0, 'node-a', { phase: 'Running' }),
    makeStsPod(sts, good, 1, 'node-b', { phase: 'Running' }),
    makeStsPod(sts, bad, 2, 'node-c', {
      phase: 'CrashLoopBackOff',
      restarts: 6,
      exitCode: 1,
      reason: 'Error',
    }),
  ];
  return { sts, pods, revisions: [good, bad] };
}

function explanation(maxUnavailable: number | undefined, serverVersion: string | undefined): string {
  const { sts, pods, revisions } = ledger(maxUnavailable);
  const snapshot = makeStatefulSetSnapshot({
    statefulSet: sts,
    controllerRevisions: revisions,
    pods,
    nodes: ['node-a', 'node-b', 'node-c'].map((n) => makeNode(n)),
    ...(serverVersion ? { serverVersion } : {}),
  });
  const [first] = diagnose(snapshot).findings;
  expect(first?.code).toBe('RolloutStuck');
  return first?.explanation ?? '';
}

describe('the MaxUnavailableStatefulSet gate', () => {
  it.each([
    ['v1.23.17', 'absent'],
    ['v1.24.0', 'off'],
    ['v1.34.2', 'off'],
    ['v1.35.0', 'on'],
    ['v1.35.3-gke.1100', 'on'],
    ['v1.35.4', 'off'],
    ['v1.35.10+k3s1', 'off'],
    ['v1.36.1', 'off'],
    ['v1.37.0', 'on'],
    ['v2.0.0', 'unknown'],
    ['not-a-version', 'unknown'],
  ])('%s: %s by default', (version, expected) => {
    expect(maxUnavailableGateDefault(version)).toBe(expected);
  });

  it('RolloutStuck says which applies on this server', () => {
    expect(explanation(2, 'v1.35.2')).toContain(
      'maxUnavailable 2 is honoured only where the MaxUnavailableStatefulSet feature gate is on; this API server reports v1.35.2, where it is on by default, so the controller lets up to 2 pods be unavailable at once',
    );
    expect(explanation(2, 'v1.35.4')).toContain(
      'this API server reports v1.35.4, where it is off by default (from 1.35.4, after kubernetes#137409), so the controller replaces one pod at a time unless the gate was turned on',
    );
    expect(explanation(2, undefined)).toContain("the API server's version was not read (a dump has none)");
    expect(explanation(undefined, 'v1.35.4')).not.toContain('MaxUnavailableStatefulSet');
  });
});

describe('the collector reads /version only where the verdict needs it', () => {
  function client(maxUnavailable: number | undefined): { client: KubeClient; calls: string[] } {
    const { sts, pods, revisions } = ledger(maxUnavailable);
    const calls: string[] = [];
    const list = <T>(items: T[]) => ({ items, metadata: { resourceVersion: '1000' } });
    const answers: Record<string, unknown> = {
      'get statefulsets/ledger': sts,
      'list controllerrevisions': list(revisions),
      'list pods': list(pods),
      'get version': { major: '1', minor: '35', gitVersion: 'v1.35.4' },
      'list nodes': list(['node-a', 'node-b', 'node-c'].map((n) => makeNode(n))),
    };
    return {
      calls,
      client: {
        server: 'https://in-memory',
        context: 'test',
        namespace: 'payments',
        async call<T>(call: ApiCall): Promise<T> {
          const key = `${call.verb} ${call.resource}${call.name ? `/${call.name}` : ''}`;
          calls.push(key);
          return (answers[key] ?? list([])) as T;
        },
        text: () => Promise.resolve('FATAL migration 0042\n'),
        watch: () => Promise.reject(new Error('no watch here')),
      },
    };
  }

  it('a StatefulSet that sets maxUnavailable: the version is read and the verdict names it', async () => {
    const { client: c, calls } = client(2);
    const snapshot = await collectSnapshot(c, LEDGER);
    expect(calls.filter((k) => k === 'get version')).toHaveLength(1);
    expect(snapshot.serverVersion).toBe('v1.35.4');
    expect(diagnose(snapshot).findings[0]?.explanation).toContain('this API server reports v1.35.4');
  });

  it('one that does not: no read', async () => {
    const { client: c, calls } = client(undefined);
    const snapshot = await collectSnapshot(c, LEDGER);
    expect(calls).not.toContain('get version');
    expect(snapshot.serverVersion).toBeUndefined();
  });
});
