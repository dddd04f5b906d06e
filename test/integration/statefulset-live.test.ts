/**
 * The StatefulSet bad release (issue 30.1), live with the real kubectl: release 3.5.0
 * cannot start, so the OrderedReady update stops at ledger-2. While the template is
 * bad, RolloutStuck says to fix it first and offers nothing to delete (the pod would
 * come back the same). After `kubectl rollout undo`, the controller still waits for
 * ledger-2 (the forced rollback): delete-pods for exactly that pod is offered, applied,
 * and `kubectl rollout status` completes. A `kubectl get -o yaml` dump gives the same
 * verdict.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { watchReplacements } from '../../src/kube/watch/rollout-watcher.js';
import { diagnoseKubectlDump, kubectlIn } from '../support/kubectl-run.js';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const LEDGER: WorkloadRef = { kind: 'StatefulSet', namespace: 'payments', name: 'ledger' };
let env: SimClient | undefined;

afterEach(async () => {
  await env?.close();
  env = undefined;
});

const kubectl = (kubeconfig: string, args: string[]) => kubectlIn(kubeconfig, LEDGER.namespace, args);

/**
 * The ledger settled, then released as 3.5.0 until ledger-2 crash-loops; the
 * simulator's delayed steps are then held, so ledger-2 stays in back-off (at 50× a
 * back-off lasts 0.2 s and the container runs 40 ms between two) until the test
 * releases them.
 */
async function badRelease(): Promise<SimClient> {
  env = await startSimClient(
    { scenario: 'sim/scenarios/statefulset-bad-release.yaml', timeScale: 50 },
    'sts-live',
  );
  const { sim, kubeconfig } = env;
  expect((await kubectl(kubeconfig, ['rollout', 'status', 'sts/ledger', '--timeout', '20s'])).code).toBe(0);
  const bad = 'registry.example.com/payments/ledger:3.5.0';
  expect((await kubectl(kubeconfig, ['set', 'image', 'sts/ledger', `ledger=${bad}`])).code).toBe(0);
  await sim.waitFor(
    () =>
      (sim.get('Pod', LEDGER.namespace, 'ledger-2') as Pod | undefined)?.status?.containerStatuses?.[0]?.state
        ?.waiting?.reason === 'CrashLoopBackOff',
    SIGNAL_WAIT_MS,
  );
  // Same turn of the event loop as the check above: no simulator step ran in between.
  sim.pauseClock();
  return env;
}

describe('StatefulSet bad release, live', () => {
  it('says to fix the template first, then after the revert deletes exactly the stuck pod, and kubectl sees the rollout complete', async () => {
    const { sim, client, kubeconfig } = await badRelease();
    const bad = diagnose(await collectSnapshot(client, LEDGER));
    expect(bad.findings[0]?.code).toBe('RolloutStuck');
    expect(bad.findings[0]?.summary).toMatch(
      /stuck at pod ledger-2 of the update revision ledger-\w+ \(image registry\.example\.com\/payments\/ledger:3\.5\.0; the current revision runs registry\.example\.com\/payments\/ledger:3\.4\.1\): .*CrashLoopBackOff/,
    );
    expect(bad.findings[0]?.explanation).toContain(
      'Fix the template first (kubectl rollout undo statefulset/ledger -n payments',
    );
    expect(bad.remediations.map((p) => p.kind)).not.toContain('delete-pods');

    expect((await kubectl(kubeconfig, ['rollout', 'undo', 'sts/ledger'])).stdout).toContain('rolled back');
    await sim.settle();
    const still = await kubectl(kubeconfig, ['rollout', 'status', 'sts/ledger', '--timeout', '1s']);
    expect(still.code).not.toBe(0);
    const stuck = diagnose(await collectSnapshot(client, LEDGER));
    expect(stuck.findings[0]?.code).toBe('RolloutStuck');
    expect(stuck.findings[0]?.summary).toMatch(
      /still runs revision ledger-\w+ \(image registry\.example\.com\/payments\/ledger:3\.5\.0\), not the update revision ledger-\w+ \(image registry\.example\.com\/payments\/ledger:3\.4\.1\)/,
    );
    const plan = stuck.remediations.find((p) => p.kind === 'delete-pods');
    const ledger2 = sim.get('Pod', LEDGER.namespace, 'ledger-2') as Pod;
    expect(plan?.pods).toEqual([{ name: 'ledger-2', uid: ledger2.metadata.uid }]);
    if (!plan) throw new Error('no delete-pods plan');
    sim.resumeClock();
    expect((await applyPlan(client, plan)).status).toBe('applied');
    const watched = await watchReplacements(client, LEDGER, {
      timeoutMs: 20_000,
      replaced: plan.pods ?? [],
      pollMs: 100,
    });
    expect(watched.outcome).toBe('complete');
    const done = await kubectl(kubeconfig, ['rollout', 'status', 'sts/ledger', '--timeout', '20s']);
    expect(done.stdout).toContain('partitioned roll out complete: 3 new pods have been updated...');
  });

  it('gives the same verdict from the cluster saved with kubectl get -o yaml', async () => {
    const { kubeconfig } = await badRelease();
    expect((await kubectl(kubeconfig, ['rollout', 'undo', 'sts/ledger'])).code).toBe(0);
    await env?.sim.settle();
    const { code, report: fromDump } = await diagnoseKubectlDump(
      kubeconfig,
      LEDGER.namespace,
      'statefulsets,controllerrevisions,pods,events,nodes,pvc',
      'sts/ledger',
    );
    expect(code).toBe(1);
    expect(fromDump.findings[0]?.code).toBe('RolloutStuck');
    expect(fromDump.remediations.find((p) => p.kind === 'delete-pods')?.pods?.map((p) => p.name)).toEqual([
      'ledger-2',
    ]);
  });
});
