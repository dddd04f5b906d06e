/**
 * `propose` into a kustomize repository (a shared base, prod and staging overlays) on the
 * real git server, rendered with the real `kubectl kustomize` for check.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitSync } from '../support/git-http-server.js';
import { proposeHarness } from '../support/propose-harness.js';

const h = proposeHarness();
const PATCH = 'overlays/prod/rollout-doctor-deployment-vision-object-tracker.yaml';

describe('propose to a kustomize overlay', () => {
  it('the base is shared: adds a strategic-merge patch in the overlay and lists it; the base is untouched', async () => {
    const { url, bare } = await h.repo('propose/kustomize');
    const result = await h.propose(url, ['--path', 'overlays/prod', '--incident', 'INC-7']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      'Check on kubectl kustomize overlays/prod: it starts no rollout now (the pod template is unchanged); the next rollout (any change to the pod template) will finish.',
    );
    const branch = 'rollout-doctor/inc-7/vision-deployment-vision-object-tracker/set-rolling-update';
    expect(gitSync(['diff', '--name-status', `main..${branch}`], bare)).toBe(
      `M\toverlays/prod/kustomization.yaml\nA\t${PATCH}\n`,
    );
    expect(gitSync(['show', `${branch}:${PATCH}`], bare)).toBe(
      [
        '# The lasting fix rollout-doctor proposed (docs/propose-in-git.md): the base is shared, so it is patched here.',
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  name: vision-object-tracker',
        'spec:',
        '  strategy:',
        '    type: RollingUpdate',
        '    rollingUpdate:',
        '      maxSurge: 0',
        '      maxUnavailable: 1',
        '',
      ].join('\n'),
    );
    const kustomization = gitSync(
      ['diff', `main..${branch}`, '--', 'overlays/prod/kustomization.yaml'],
      bare,
    );
    expect(kustomization.split('\n').filter((l) => /^[-+](?![-+])/.test(l))).toEqual([
      '+patches:',
      `+  - path: rollout-doctor-deployment-vision-object-tracker.yaml`,
    ]);
    expect(h.github().pulls[0]?.body).toContain('`rollout-doctor check` on kubectl kustomize overlays/prod');
  });

  it('a second run finds its own patch in the overlay and changes nothing more', async () => {
    const { url } = await h.repo('propose/kustomize');
    expect((await h.propose(url, ['--path', 'overlays/prod'])).status).toBe(0);
    const again = await h.repo('propose/kustomize', (dir) => {
      writeFileSync(
        join(dir, PATCH),
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vision-object-tracker\nspec:\n  strategy:\n    type: RollingUpdate   # ours\n    rollingUpdate: {maxSurge: 0, maxUnavailable: 1}\n',
      );
      writeFileSync(
        join(dir, 'overlays/prod/kustomization.yaml'),
        `namespace: vision\nresources:\n  - ../../base\npatches:\n  - path: ${PATCH.split('/').pop() ?? ''}\n`,
      );
    });
    const result = await h.propose(again.url, ['--path', 'overlays/prod', '--dry-run']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`${PATCH} already has this change: nothing to propose.`);
  });

  it('an overlay patch that sets the old strategy is edited in place', async () => {
    const { url } = await h.repo('propose/kustomize', (dir) => {
      writeFileSync(
        join(dir, 'overlays/prod/strategy.yaml'),
        '# prod rolls fast\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vision-object-tracker\nspec:\n  strategy:\n    rollingUpdate:\n      maxSurge: 1   # one more pod\n      maxUnavailable: 0\n',
      );
      writeFileSync(
        join(dir, 'overlays/prod/kustomization.yaml'),
        'namespace: vision\nresources:\n  - ../../base\npatches:\n  - path: strategy.yaml\n',
      );
    });
    const result = await h.propose(url, ['--path', 'overlays/prod', '--dry-run']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n').filter((l) => /^[-+](?![-+])/.test(l))).toEqual([
      '-      maxSurge: 1   # one more pod',
      '-      maxUnavailable: 0',
      '+      maxSurge: 0 # one more pod',
      '+      maxUnavailable: 1',
      '+    type: RollingUpdate',
    ]);
  });

  it('refuses a remote base and a base outside the checkout, pushing nothing', async () => {
    const remote = await h.repo('propose/kustomize', (dir) =>
      writeFileSync(
        join(dir, 'overlays/prod/kustomization.yaml'),
        'resources:\n  - https://github.com/evil/base?ref=main\n',
      ),
    );
    const before = h.pushes();
    const first = await h.propose(remote.url, ['--path', 'overlays/prod']);
    expect(first.status).toBe(2);
    expect(first.stderr).toContain('names a remote resource');
    const outside = await h.repo('propose/kustomize', (dir) =>
      writeFileSync(join(dir, 'overlays/prod/kustomization.yaml'), 'resources:\n  - ../../../../../../etc\n'),
    );
    const second = await h.propose(outside.url, ['--path', 'overlays/prod']);
    expect(second.status).toBe(2);
    expect(second.stderr).toContain('leads out of the repository');
    expect(h.pushes()).toBe(before);
  });
});
