/**
 * `propose` without --repo and --path: the Argo CD Application that applies the workload
 * (read from the dump beside it) names the repository and the path.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { gitSourceOf } from '../../src/propose/owner-source.js';
import { fakeIo } from '../support/cli-io.js';
import { proposeHarness, TOKEN } from '../support/propose-harness.js';

const h = proposeHarness();

function argoDump(repoURL: string): string {
  const file = join(h.root, `argo-${Math.random().toString(36).slice(2)}.yaml`);
  const text = readFileSync(h.dump, 'utf8').replace(
    '        deployment.kubernetes.io/revision: "3"\n',
    '        deployment.kubernetes.io/revision: "3"\n        argocd.argoproj.io/tracking-id: vision:apps/Deployment:vision/vision-object-tracker\n',
  );
  const app = [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    'metadata:',
    '  name: vision',
    '  namespace: argocd',
    'spec:',
    '  project: default',
    '  source:',
    `    repoURL: ${repoURL}`,
    '    path: apps',
    '    targetRevision: main',
    '  destination: {server: https://kubernetes.default.svc, namespace: vision}',
    '  syncPolicy: {automated: {selfHeal: true}}',
  ].join('\n');
  writeFileSync(file, `${text}\n---\n${app}\n`);
  return file;
}

describe('propose where the owner says', () => {
  it('an Argo CD Application’s source gives the repository, the path and the branch', async () => {
    const { url } = await h.repo('propose/plain');
    const run = fakeIo();
    run.io.env = { ROLLOUT_DOCTOR_GIT_TOKEN: TOKEN, ROLLOUT_DOCTOR_GITHUB_API: h.github().apiBase };
    const status = await runCli(
      [
        'propose',
        'deploy/vision-object-tracker',
        '-n',
        'vision',
        '--remediation',
        'set-rolling-update',
        '--from-file',
        argoDump(url),
      ],
      run.io,
    );
    expect(run.stderr()).toBe('');
    expect(status).toBe(0);
    expect(run.stdout()).toContain('+      maxUnavailable: 1');
    expect(h.github().pulls).toMatchObject([{ base: 'main' }]);
  });

  it('says why where the owner names no Git path', () => {
    const read = {
      kind: 'Application' as const,
      apiVersion: 'argoproj.io/v1alpha1',
      resource: 'applications.argoproj.io',
      namespace: 'argocd',
      name: 'vision',
      settle: '',
    };
    expect(gitSourceOf(undefined)).toContain('no GitOps owner');
    expect(gitSourceOf({ ...read, state: 'forbidden' })).toContain('was not read (forbidden)');
    expect(
      gitSourceOf({
        ...read,
        state: 'read',
        object: {
          spec: { source: { repoURL: 'https://charts.example', chart: 'x', targetRevision: '1.2.3' } },
        },
      }),
    ).toContain('has no Git source with a path');
    expect(
      gitSourceOf({
        ...read,
        state: 'read',
        object: {
          spec: {
            sources: [
              { repoURL: 'https://charts.example', chart: 'x' },
              {
                repoURL: 'https://git.example/o/r.git',
                path: 'charts/x',
                targetRevision: 'release',
                helm: { valueFiles: ['prod.yaml'], releaseName: 'web' },
              },
            ],
          },
        },
      }),
    ).toEqual({
      repo: 'https://git.example/o/r.git',
      path: 'charts/x',
      base: 'release',
      helm: { values: 'charts/x/prod.yaml', release: 'web' },
      from: 'Argo CD Application argocd/vision',
    });
  });

  it('a Flux Kustomization: its GitRepository’s url and branch, its path', () => {
    const flux = {
      kind: 'Kustomization' as const,
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      resource: 'kustomizations.kustomize.toolkit.fluxcd.io',
      namespace: 'flux-system',
      name: 'apps',
      settle: '',
      state: 'read' as const,
      object: { spec: { path: './clusters/prod', sourceRef: { kind: 'GitRepository', name: 'fleet' } } },
    };
    const repo = {
      kind: 'GitRepository',
      metadata: { name: 'fleet', namespace: 'flux-system' },
      spec: { url: 'https://git.example/o/fleet.git', ref: { branch: 'main' } },
    };
    expect(gitSourceOf(flux, [repo])).toEqual({
      repo: 'https://git.example/o/fleet.git',
      path: 'clusters/prod',
      base: 'main',
      from: 'Flux Kustomization flux-system/apps',
    });
    expect(gitSourceOf(flux, [])).toContain('names GitRepository flux-system/fleet, which was not read');
  });
});
