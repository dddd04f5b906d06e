import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/**
 * What `rollout-doctor apply` says it writes and what it wrote, per remediation kind:
 * the real target (the Deployment, an old ReplicaSet's scale, pods, a DeviceTaintRule),
 * and a generation only where a Deployment patch makes one. And every command's
 * --help lists the exit statuses of DESIGN.md §3.
 */
import { describe, expect, it } from 'vitest';
import { appliedLine, describePlan } from '../../src/cli/commands/apply.js';
import { runCli } from '../../src/cli/run-cli.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { fakeIo } from '../support/cli-io.js';
import { writeUnreachableKubeconfig } from '../support/unreachable-kubeconfig.js';

const target = { kind: 'Deployment' as const, namespace: 'vision', name: 'tracker' };
const base: RemediationPlan = {
  id: 'plan-1',
  kind: 'set-recreate',
  target,
  summary: 'summary',
  impact: 'impact',
  warnings: [],
  patch: { type: 'strategic-merge', body: { spec: { strategy: { type: 'Recreate' } } } },
  preconditions: { uid: 'u', generation: 2, fields: [] },
  inverse: null,
  addresses: 'RolloutSurgeDeadlock',
};
const pods = [{ name: 'tracker-6d4f-x2kqp', uid: 'uid-1' }];
const scale: RemediationPlan = {
  ...base,
  inverse: null,
  kind: 'scale-old-replicaset',
  patch: { type: 'json', body: [{ op: 'replace', path: '/spec/replicas', value: 0 }] },
  replicaSet: {
    name: 'tracker-6d4f',
    uid: 'rs-uid',
    podTemplateHash: '6d4f',
    replicas: 1,
    to: 0,
    newReplicaSet: { name: 'tracker-7bbc', uid: 'rs-new' },
  },
};
const taint: RemediationPlan = {
  ...base,
  inverse: null,
  kind: 'taint-device',
  patch: null,
  pods,
  deviceTaint: {
    apiVersion: 'resource.k8s.io/v1',
    name: 'rollout-doctor-gpu-0',
    driver: 'gpu.example.com',
    pool: 'node-1',
    device: 'gpu-0',
    node: 'node-1',
    resourceID: 'gpu.example.com/gpu=gpu-0',
    taint: { key: 'rollout-doctor.io/unhealthy', value: 'true', effect: 'NoSchedule' },
  },
};
const deletePods: RemediationPlan = { ...base, inverse: null, kind: 'delete-pods', patch: null, pods };

describe('apply: the write, named by its real target', () => {
  it('a Deployment patch goes to deployments/NAME and names the new generation', () => {
    expect(describePlan(base)).toContain(
      'Patch (application/strategic-merge-patch+json) to deployments/tracker in namespace vision:',
    );
    expect(appliedLine(base, 3)).toBe(
      'Applied to deployments/tracker in namespace vision (now generation 3):',
    );
  });

  it('scale-old-replicaset patches replicasets/RS/scale, never the Deployment, and names no generation', () => {
    const text = describePlan(scale);
    expect(text).toContain(
      'Patch (application/json-patch+json) to replicasets/tracker-6d4f/scale in namespace vision',
    );
    expect(text).not.toContain('deployments/');
    expect(appliedLine(scale, 2)).toBe('Applied: scaled replicasets/tracker-6d4f in namespace vision:');
  });

  it('a stepped scale says the patch is its first step', () => {
    const rs = scale.replicaSet;
    if (!rs) throw new Error('fixture');
    const stepped = { ...scale, replicaSet: { ...rs, replicas: 3, stepped: true } };
    expect(describePlan(stepped)).toContain('one replica at a time from 3 to 0');
  });

  it('taint-device shows the DeviceTaintRule it creates, then the pods it deletes', () => {
    const text = describePlan(taint);
    expect(text).toContain(
      'Creates devicetaintrules/rollout-doctor-gpu-0 (resource.k8s.io/v1, cluster-scoped):',
    );
    expect(text).toContain('"kind": "DeviceTaintRule"');
    expect(text).toContain('"effect": "NoSchedule"');
    expect(text).toContain('tracker-6d4f-x2kqp (uid uid-1)');
    expect(appliedLine(taint, 2)).not.toMatch(/generation/);
  });

  it('delete-pods names the pods and no generation', () => {
    expect(describePlan(deletePods)).toContain('Deletes pods in namespace vision');
    expect(appliedLine(deletePods, 2)).toBe('Applied: deleted pods in namespace vision:');
  });
});

describe('--help lists every exit status', () => {
  it.each([['diagnose'], ['scan'], ['apply']])('%s --help', async (command) => {
    const run = fakeIo();
    expect(await runCli([command, '--help'], run.io)).toBe(0);
    const help = run.stdout().replace(/\s+/g, ' ');
    for (const status of [
      '0 ',
      '1 ',
      '2 bad arguments',
      '3 cluster unreachable or forbidden',
      '4 internal error',
    ])
      expect(help).toContain(status);
  });

  it('apply: declining at the prompt is exit 1 (not applied), documented as such', async () => {
    const run = fakeIo();
    await runCli(['apply', '--help'], run.io);
    expect(run.stdout().replace(/\s+/g, ' ')).toContain(
      '1 not applied (refused, failed, or declined at the prompt)',
    );
  });
});

describe('apply --remediation is checked before any cluster is contacted', () => {
  // The kubeconfig does not exist: reaching the cluster would be exit 3, not 2.
  // A cluster nobody answers at (exit 3 once contacted); a kubeconfig that cannot be read would be exit 2.
  const unreachable = join(mkdtempSync(join(tmpdir(), 'rd-apply-')), 'kubeconfig');
  writeUnreachableKubeconfig(unreachable);
  const cluster = ['--kubeconfig', unreachable];

  it.each([['nope'], ['set-rolling-update-xyz'], ['scale-old-replicaset-0123456789abcdeg']])(
    'an unknown kind or malformed plan id (%s) is exit 2 naming the kinds',
    async (wanted) => {
      const run = fakeIo();
      const code = await runCli(
        ['apply', 'deployment/tracker', '-n', 'vision', '--remediation', wanted, ...cluster],
        run.io,
      );
      expect(code).toBe(2);
      expect(run.stderr()).toContain('neither a remediation kind');
      expect(run.stderr()).toContain('scale-old-replicaset');
    },
  );

  it.each([['set-recreate'], ['scale-old-replicaset-956b0af00c672e53']])(
    'a kind or a plan id (%s) goes on to the cluster',
    async (wanted) => {
      const run = fakeIo();
      const code = await runCli(
        ['apply', 'deployment/tracker', '-n', 'vision', '--remediation', wanted, ...cluster],
        run.io,
      );
      expect(code).toBe(3);
    },
  );
});
