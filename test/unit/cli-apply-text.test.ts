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
import { watchingWords } from '../../src/remediation/watch-scope.js';
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

describe('apply and undo in Korean (--lang ko)', () => {
  const worded: RemediationPlan = {
    ...base,
    summary: 'Switch tracker to Recreate.',
    impact:
      'Now and in every later rollout: outage, all 3 replicas down from the moment the old pods stop until the new pods are Ready.',
    impactSaid: { key: 'recreate', params: { paused: false, restart: true, replicas: 3 } },
    warnings: [
      'Every later rollout is a full outage too: Recreate never runs old and new pods side by side.',
      'as written',
    ],
    warningsSaid: [{ key: 'recreateLater', params: {} }],
  };

  it('shows the plan in the reader language, the write as it is', () => {
    const lines = describePlan(worded, 'ko').split('\n');
    expect(lines[0]).toMatch(/^조치 set-recreate \(plan-1\): /);
    expect(lines[1]).toBe(
      '영향: 지금과 이후의 모든 롤아웃에서 서비스가 중단됩니다: 기존 파드가 멈춘 순간부터 새 파드가 Ready가 될 때까지 레플리카 3개가 모두 내려갑니다.',
    );
    expect(lines[2]).toBe(
      '주의: 이후의 모든 롤아웃도 전면 중단입니다: Recreate는 기존 파드와 새 파드를 함께 실행하지 않습니다.',
    );
    expect(lines[3]).toBe('주의: as written');
    expect(lines).toContain(
      'Patch (application/strategic-merge-patch+json) to deployments/tracker in namespace vision:',
    );
    expect(describePlan(worded).split('\n').slice(0, 4)).toEqual([
      'Remediation set-recreate (plan-1): Switch tracker to Recreate.',
      `Impact: ${worded.impact}`,
      `Warning: ${worded.warnings[0] ?? ''}`,
      'Warning: as written',
    ]);
  });

  it('says what it watches in the reader language', () => {
    expect(watchingWords({ kind: 'rollout' }, 'ko')).toBe('롤아웃을 지켜봅니다…');
    const four = ['a', 'b', 'c', 'd'].map((n) => ({ name: `web-${n}`, uid: n }));
    expect(watchingWords({ kind: 'replacements', pods: four })).toBe(
      'Watching the replacements of web-a, web-b, web-c and 1 more become Ready…',
    );
    expect(watchingWords({ kind: 'replacements', pods: four }, 'ko')).toBe(
      'web-a, web-b, web-c and 1 more 파드를 대신할 파드가 Ready가 되는지 지켜봅니다…',
    );
  });

  it('undo --help --lang ko names the flag', async () => {
    const f = fakeIo();
    const status = await runCli(['undo', '--help', '--lang', 'ko'], f.io);
    expect(status).toBe(0);
    expect(f.stdout()).toContain(
      '--lang en|ko   출력 언어(기본값: LC_ALL, LC_MESSAGES, LANG 순서, 없으면 en)',
    );
  });
});
