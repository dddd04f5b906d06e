import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { ClusterError, WorkloadNotFoundError } from '../../src/kube/errors.js';
import { fakeIo } from '../support/cli-io.js';

const { collectFromCluster } = vi.hoisted(() => ({ collectFromCluster: vi.fn() }));
vi.mock('../../src/kube/read/source.js', () => ({ collectFromCluster }));

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;
const ref: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' };
/** The mocked live source returns the dump's snapshot; nothing below asks diagnose() what to expect. */
const snapshot = assembleSnapshot(ref, loadObjects(readFileSync(FIXTURE, 'utf8')));
/** Facts of incident A, read off the dump by a person: a critical surge deadlock, so exit 1. */
const EXIT_PROBLEMS = 1;
const VERDICT = 'RolloutSurgeDeadlock';
const TEXT_HEADER = /^Deployment vision\/vision-object-tracker {2}\(as of 2026-11-22T02:59:12Z\)/;

/** The JSON report's facts for incident A, whichever way the dump was read. */
function expectIncidentAJson(stdout: string): void {
  const json = JSON.parse(stdout) as {
    target: unknown;
    findings: { code: string; severity: string }[];
    remediations: { kind: string }[];
  };
  expect(json.target).toEqual(ref);
  expect(json.findings[0]).toMatchObject({ code: VERDICT, severity: 'critical' });
  expect(json.remediations.map((r) => r.kind)).toEqual(
    expect.arrayContaining(['set-rolling-update', 'set-recreate']),
  );
}
const dir = mkdtempSync(join(tmpdir(), 'rollout-doctor-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('rollout-doctor diagnose --from-file (incident A dump)', () => {
  it('prints the JSON diagnosis of the dump and exits by its findings', async () => {
    const run = fakeIo();
    const status = await runCli(
      ['diagnose', 'deployment/vision-object-tracker', '-n', 'vision', '--from-file', FIXTURE, '-o', 'json'],
      run.io,
    );
    expect(run.stderr()).toBe('');
    const json = JSON.parse(run.stdout());
    expect(json.target).toEqual({ kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' });
    expect(json.capturedAt).toBe('2026-11-22T02:59:12Z');
    expect(json.observed).toEqual({
      uid: '6f1c2a9e-3b7d-4c1e-9a52-0d8e4f7b1c01',
      generation: 3,
      resourceVersion: '48213377',
    });
    expectIncidentAJson(run.stdout());
    expect(status).toBe(EXIT_PROBLEMS);
  });

  it('gives the RolloutSurgeDeadlock verdict first, exit 1, with the strategy fix offered', async () => {
    const run = fakeIo();
    const args = [
      'diagnose',
      'deploy/vision-object-tracker',
      '-n',
      'vision',
      '--from-file',
      FIXTURE,
      '-o',
      'json',
    ];
    expect(await runCli(args, run.io)).toBe(1);
    const json = JSON.parse(run.stdout());
    expect(json.findings[0]).toMatchObject({ code: 'RolloutSurgeDeadlock', severity: 'critical' });
    expect(json.findings.map((f: { code: string }) => f.code)).not.toContain('Unschedulable');
    const kinds = json.remediations.map((r: { kind: string }) => r.kind);
    expect(kinds).toContain('set-rolling-update');
    const text = fakeIo();
    await runCli(args.slice(0, -2), text.io);
    expect(text.stdout().indexOf('[CRITICAL] RolloutSurgeDeadlock')).toBeLessThan(
      text.stdout().indexOf('Evidence'),
    );
  });

  it.each([
    'vision-object-tracker',
    'deploy/vision-object-tracker',
    'deployments/vision-object-tracker',
    'deployment.apps/vision-object-tracker',
  ])('accepts %s and prints the text report without colour off a TTY', async (target) => {
    const run = fakeIo();
    expect(await runCli(['diagnose', target, '--namespace', 'vision', '--from-file', FIXTURE], run.io)).toBe(
      EXIT_PROBLEMS,
    );
    expect(run.stdout()).toMatch(TEXT_HEADER);
    expect(run.stdout()).toContain(`[CRITICAL] ${VERDICT}`);
  });

  it('reads the dump from stdin with --from-file -', async () => {
    const run = fakeIo(readFileSync(FIXTURE, 'utf8'));
    expect(
      await runCli(
        ['diagnose', 'vision-object-tracker', '-n', 'vision', '--from-file', '-', '-o', 'json'],
        run.io,
      ),
    ).toBe(EXIT_PROBLEMS);
    expectIncidentAJson(run.stdout());
  });

  it('exits 2 naming the namespace when the Deployment is not in the dump', async () => {
    const run = fakeIo();
    expect(await runCli(['diagnose', 'deploy/vision-object-tracker', '--from-file', FIXTURE], run.io)).toBe(
      2,
    );
    expect(run.stderr()).toContain('not in the dump for namespace "default"');
    expect(run.stdout()).toBe('');
  });

  it('suggests the closest Deployment name for a typo, on one line', async () => {
    const run = fakeIo();
    const argv = ['diagnose', 'deploy/vison-object-tracker', '-n', 'vision', '--from-file', FIXTURE];
    expect(await runCli(argv, run.io)).toBe(2);
    expect(run.stderr()).toBe(
      'rollout-doctor diagnose: Deployment "vison-object-tracker" is not in the dump for namespace "vision". Did you mean deployment/vision-object-tracker?\n',
    );
  });

  it('exits 2 naming the file and the problem for unreadable or malformed dumps', async () => {
    const garbage = join(dir, 'notes.txt');
    writeFileSync(garbage, 'remember to restart the tracker\n');
    const malformed = join(dir, 'bad.yaml');
    writeFileSync(malformed, 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {}\n');
    for (const [file, message] of [
      [garbage, `${garbage}: the dump is plain text`],
      [malformed, `${malformed}: the dump (Pod "p"): spec.containers is missing`],
      [join(dir, 'missing.yaml'), 'no such file'],
      [dir, 'it is a directory'],
    ] as const) {
      const run = fakeIo();
      expect(await runCli(['diagnose', 'web', '-n', 'shop', '--from-file', file], run.io)).toBe(2);
      expect(run.stderr()).toContain(message);
    }
  });

  it.each([
    [
      [],
      'which Deployment, DaemonSet, StatefulSet or Rollout? Give TYPE/NAME (deployment/NAME, daemonset/NAME, statefulset/NAME, rollout/NAME)',
    ],
    [['a', 'b'], 'expected one Deployment, DaemonSet, StatefulSet or Rollout, got 2'],
    [
      ['cronjob/db'],
      'only Deployments, DaemonSets, StatefulSets and Rollouts can be diagnosed, not "cronjob"',
    ],
    [['Web_App'], '"Web_App" is not a valid Deployment name'],
    [['deploy/'], '"" is not a valid Deployment name'],
    [['web', '-n', 'Bad_NS'], '"Bad_NS" is not a valid namespace'],
    [['web', '-o', 'yaml'], '-o must be text or json, not "yaml"'],
    [
      ['web', '--from-file', 'x.yaml', '--context', 'prod'],
      '--context and --kubeconfig only apply to a live cluster',
    ],
    [['web', '--frobnicate'], 'unknown option "--frobnicate" (--help lists the options)'],
  ])('exits 2 on bad arguments %j', async (args, message) => {
    const run = fakeIo();
    expect(await runCli(['diagnose', ...args], run.io)).toBe(2);
    expect(run.stderr()).toContain(message);
  });
});

describe('rollout-doctor diagnose against a live cluster', () => {
  beforeEach(() => {
    // A function returned from beforeEach runs as teardown: keep the block form.
    collectFromCluster.mockReset();
  });

  it('passes the source options through and prints progress only on a TTY', async () => {
    collectFromCluster.mockImplementation(async (options: { onProgress?: (s: string) => void }) => {
      options.onProgress?.('reading deployment');
      return snapshot;
    });
    const run = fakeIo();
    const args = [
      'diagnose',
      'deploy/vision-object-tracker',
      '-n',
      'vision',
      '--context',
      'prod',
      '--kubeconfig',
      '/k',
    ];
    expect(await runCli(args, run.io)).toBe(EXIT_PROBLEMS);
    expect(collectFromCluster).toHaveBeenCalledWith(
      expect.objectContaining({ ref, context: 'prod', kubeconfig: '/k' }),
    );
    expect(run.stderr()).toBe('');
    expect(run.stdout()).toMatch(TEXT_HEADER);
    expect(run.stdout()).toContain(`[CRITICAL] ${VERDICT}`);

    const tty = fakeIo();
    Object.assign(tty.io.stderr, { isTTY: true });
    await runCli(args, tty.io);
    expect(tty.stderr()).toContain('reading deployment');
  });

  it('exits 3 when the cluster is unreachable or forbidden, 2 when the Deployment is missing', async () => {
    collectFromCluster.mockRejectedValueOnce(
      new ClusterError('cannot reach the API server at https://127.0.0.1:6443'),
    );
    const down = fakeIo();
    expect(await runCli(['diagnose', 'web'], down.io)).toBe(3);
    expect(down.stderr()).toContain('cannot reach the API server');

    collectFromCluster.mockRejectedValueOnce(
      new WorkloadNotFoundError('Deployment "web" not found in namespace "default"', ['default']),
    );
    const missing = fakeIo();
    expect(await runCli(['diagnose', 'web'], missing.io)).toBe(2);
    expect(missing.stderr()).toContain('not found in namespace "default"');
  });
});

describe('rollout-doctor diagnose: where Argo CD Applications live', () => {
  /**
   * Incident A, tracked by an Argo CD Application in "gitops" (a tracking id without
   * `<ns>_` names no namespace, so the CLI must be told where Argo CD runs).
   */
  const argoDump = join(dir, 'incident-a-argocd.yaml');
  const list = loadObjects(readFileSync(FIXTURE, 'utf8'));
  writeFileSync(
    argoDump,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        ...list.map((o) =>
          o.kind === 'Deployment'
            ? {
                ...o,
                metadata: {
                  ...o.metadata,
                  annotations: {
                    ...o.metadata?.annotations,
                    'argocd.argoproj.io/tracking-id':
                      'vision-tracker:apps/Deployment:vision/vision-object-tracker',
                  },
                },
              }
            : o,
        ),
        {
          apiVersion: 'argoproj.io/v1alpha1',
          kind: 'Application',
          metadata: { name: 'vision-tracker', namespace: 'gitops' },
          spec: { syncPolicy: { automated: { selfHeal: true } } },
        },
      ],
    }),
  );
  const ownerGaps = (stdout: string): string[] =>
    (JSON.parse(stdout) as { coverage: { gaps: { about: string; what: string }[] } }).coverage.gaps
      .filter((g) => g.about === 'owner')
      .map((g) => g.what);
  const args = [
    'diagnose',
    'deploy/vision-object-tracker',
    '-n',
    'vision',
    '--from-file',
    argoDump,
    '-o',
    'json',
  ];

  it('looks in "argocd" by default: the Application in "gitops" is not the one named', async () => {
    const run = fakeIo();
    await runCli(args, run.io);
    expect(ownerGaps(run.stdout())).toEqual(['Application argocd/vision-tracker (applications.argoproj.io)']);
  });

  it('reads the Application from --argocd-namespace, or from ROLLOUT_DOCTOR_ARGOCD_NAMESPACE as the worker does', async () => {
    const flag = fakeIo();
    await runCli([...args, '--argocd-namespace', 'gitops'], flag.io);
    expect(ownerGaps(flag.stdout())).toEqual([]);

    const env = fakeIo();
    env.io.env = { ROLLOUT_DOCTOR_ARGOCD_NAMESPACE: 'gitops' };
    await runCli(args, env.io);
    expect(ownerGaps(env.stdout())).toEqual([]);

    const both = fakeIo();
    both.io.env = { ROLLOUT_DOCTOR_ARGOCD_NAMESPACE: 'gitops' };
    await runCli([...args, '--argocd-namespace', 'argocd'], both.io);
    expect(ownerGaps(both.stdout())).toEqual([
      'Application argocd/vision-tracker (applications.argoproj.io)',
    ]);
  });

  it('refuses a value that is not a namespace: exit 2, naming where it came from', async () => {
    const flag = fakeIo();
    expect(await runCli([...args, '--argocd-namespace', 'Argo CD'], flag.io)).toBe(2);
    expect(flag.stderr()).toContain('--argocd-namespace "Argo CD" is not a valid namespace');

    const env = fakeIo();
    env.io.env = { ROLLOUT_DOCTOR_ARGOCD_NAMESPACE: 'ns/x' };
    expect(await runCli(args, env.io)).toBe(2);
    expect(env.stderr()).toContain('ROLLOUT_DOCTOR_ARGOCD_NAMESPACE "ns/x"');
  });

  it('passes it to a live read', async () => {
    collectFromCluster.mockResolvedValueOnce(snapshot);
    const run = fakeIo();
    await runCli(
      ['diagnose', 'deploy/vision-object-tracker', '-n', 'vision', '--argocd-namespace', 'gitops'],
      run.io,
    );
    expect(collectFromCluster).toHaveBeenCalledWith(expect.objectContaining({ argocdNamespace: 'gitops' }));
  });
});
