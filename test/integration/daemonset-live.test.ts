/**
 * The DaemonSet surge deadlock (issue 30.2), live: the node agent of
 * sim/scenarios/node-agent-surge.yaml serves on hostPort 9100 with maxSurge 1, so
 * `kubectl set image` leaves its surge pod Pending beside the old pod on the same node.
 * The engine names it RolloutSurgeDeadlock, offers the strategy change on
 * spec.updateStrategy (no restart, no Recreate, no ReplicaSet scale), the approved
 * plan is applied, and `kubectl rollout status` then completes. The same cluster saved
 * with `kubectl get -o yaml` gives the same verdict from the dump.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { watchRollout } from '../../src/kube/watch/rollout-watcher.js';
import { scanCluster } from '../../src/kube/read/scan.js';
import { diagnoseKubectlDump, kubectlIn } from '../support/kubectl-run.js';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { daemonSetSettled, NODE_AGENT } from '../support/sim-rollout.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let env: SimClient | undefined;

afterEach(async () => {
  await env?.close();
  env = undefined;
});

const kubectl = (kubeconfig: string, args: string[]) => kubectlIn(kubeconfig, NODE_AGENT.namespace, args);

/** The agent settled on its three nodes, then rolled to 1.9.0 with the real kubectl until its surge pod is refused. */
async function deadlocked(): Promise<SimClient> {
  env = await startSimClient({ scenario: 'sim/scenarios/node-agent-surge.yaml', timeScale: 50 }, 'ds-live');
  await daemonSetSettled(env.sim);
  const image = 'registry.example.com/telemetry/node-agent:1.9.0';
  expect((await kubectl(env.kubeconfig, ['set', 'image', 'ds/node-agent', `agent=${image}`])).code).toBe(0);
  await env.sim.waitFor(
    () =>
      (env?.sim.list('Event', NODE_AGENT.namespace) as { reason?: string }[]).some(
        (e) => e.reason === 'FailedScheduling',
      ),
    SIGNAL_WAIT_MS,
  );
  return env;
}

describe('DaemonSet surge deadlock, live', () => {
  it('diagnoses the hostPort surge, applies maxSurge 0 on spec.updateStrategy, and kubectl sees the rollout complete', async () => {
    const { client, kubeconfig } = await deadlocked();
    const stuck = await kubectl(kubeconfig, ['rollout', 'status', 'ds/node-agent', '--timeout', '1s']);
    expect(stuck.code).not.toBe(0);

    const diagnosis = diagnose(await collectSnapshot(client, NODE_AGENT));
    const [finding] = diagnosis.findings;
    expect(finding?.code).toBe('RolloutSurgeDeadlock');
    expect(finding?.summary).toMatch(
      /needs hostPort 9100\/TCP.* held by old pod node-agent-\w+ of this DaemonSet/,
    );
    expect(finding?.explanation).toContain('Waiting for daemon set "node-agent" rollout to finish');
    // A DaemonSet has no Recreate and no ReplicaSet to scale; deleting pods would not help.
    expect(diagnosis.remediations.map((p) => p.kind)).toEqual(['set-rolling-update']);
    const [plan] = diagnosis.remediations;
    if (!plan) throw new Error('no plan');
    expect(plan.patch).toEqual({
      type: 'strategic-merge',
      body: {
        spec: {
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
        },
      },
    });
    expect(plan.inverse?.body).toEqual({
      spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } },
    });

    const result = await applyPlan(client, plan);
    expect(result.status).toBe('applied');
    const generation = result.status === 'applied' ? result.generation : 0;
    const watched = await watchRollout(client, NODE_AGENT, {
      timeoutMs: 20_000,
      sinceGeneration: generation,
      pollMs: 100,
    });
    expect(watched).toMatchObject({
      outcome: 'complete',
      summary: 'daemon set "node-agent" successfully rolled out',
    });
    const done = await kubectl(kubeconfig, ['rollout', 'status', 'ds/node-agent', '--timeout', '20s']);
    expect(done.stdout).toContain('daemon set "node-agent" successfully rolled out');
    // Healthy again: nothing to say, and nothing the scan lists.
    expect(diagnose(await collectSnapshot(client, NODE_AGENT)).findings.map((f) => f.code)).not.toContain(
      'RolloutSurgeDeadlock',
    );
  });

  it('gives the same verdict from the cluster saved with kubectl get -o yaml, and scan lists the DaemonSet', async () => {
    const { client, kubeconfig } = await deadlocked();
    const { code, report: fromDump } = await diagnoseKubectlDump(
      kubeconfig,
      NODE_AGENT.namespace,
      'daemonsets,controllerrevisions,pods,events,nodes',
      'ds/node-agent',
    );
    expect(code).toBe(1);
    expect(fromDump.findings[0]?.code).toBe('RolloutSurgeDeadlock');
    expect(fromDump.remediations.map((p) => p.kind)).toEqual(['set-rolling-update']);

    const scan = await scanCluster(client, { namespace: NODE_AGENT.namespace });
    expect(scan.entries.map((e) => [e.kind, e.name, e.findings[0]?.code])).toContainEqual([
      'DaemonSet',
      'node-agent',
      'RolloutSurgeDeadlock',
    ]);
  });
});
