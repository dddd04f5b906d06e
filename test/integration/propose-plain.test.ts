/**
 * `rollout-doctor propose` against real parts on loopback: git's own http-backend
 * serving a plain-manifest repository, a GitHub REST stand-in recording pull requests,
 * and incident A's dump (a GPU surge deadlock) completed with what `kubectl get -A`
 * adds, so check reads the cluster whole.
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitSync } from '../support/git-http-server.js';
import { proposeHarness, TOKEN } from '../support/propose-harness.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { propose as proposeChange } from '../../src/propose/propose.js';

const h = proposeHarness();
const repoWith = (change?: (dir: string) => void) => h.repo('propose/plain', change);
const propose = (url: string, _name: string, extra: string[] = []) =>
  h.propose(url, [...(extra.includes('--path') ? [] : ['--path', 'apps']), ...extra]);
const pushes = (): number => h.pushes();

describe('propose to a plain-manifest repository', () => {
  it('dry run: prints the diff of the two strategy lines, comments kept, check says the next rollout will finish, pushes nothing', async () => {
    const { url, name } = await repoWith();
    const before = pushes();
    const result = await propose(url, name, ['--dry-run']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const changed = result.stdout.split('\n').filter((l) => /^[-+](?![-+])/.test(l));
    expect(changed).toEqual([
      '-      maxSurge: 25%       # one extra pod while rolling',
      '-      maxUnavailable: 25%',
      '+      maxSurge: 0 # one extra pod while rolling',
      '+      maxUnavailable: 1',
    ]);
    expect(result.stdout).toContain(
      'Check on apps/vision/deployment.yaml: it starts no rollout now (the pod template is unchanged); the next rollout (any change to the pod template) will finish.',
    );
    expect(result.stdout).toContain('Dry run: nothing pushed');
    expect(pushes()).toBe(before);
    expect(h.github().requests).toEqual([]);
  });

  it('pushes a branch and opens a pull request; a second run for the same incident updates it', async () => {
    const { url, name, bare } = await repoWith();
    const args = [
      '--incident',
      'INC-42',
      '--approved-by',
      'Ana <@U123>',
      '--thread',
      'https://slack.example/archives/C1/p1',
    ];
    const first = await propose(url, name, args);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('Pull request opened: https://github.example/team/');
    expect(h.github().pulls).toHaveLength(1);
    const [pull] = h.github().pulls;
    if (!pull) throw new Error('no pull request');
    const branch = 'rollout-doctor/inc-42/vision-deployment-vision-object-tracker/set-rolling-update';
    expect(pull).toMatchObject({ head: branch, base: 'main', state: 'open' });
    expect(pull.title).toBe(
      'rollout-doctor: keep the fix for RolloutSurgeDeadlock on Deployment vision/vision-object-tracker',
    );
    expect(pull.body).toContain('**Proof**: ');
    expect(pull.body).toContain('the next rollout (any change to the pod template) will finish');
    expect(pull.body).toContain('**Approved by**: Ana &lt;@\u200bU123&gt;');
    expect(pull.body).toContain('**Thread**: https://slack.example/archives/C1/p1');
    expect(pull.body).toContain('+      maxUnavailable: 1');
    const shown = gitSync(['show', `${branch}:apps/vision/deployment.yaml`], bare);
    expect(shown).toContain('      maxSurge: 0 # one extra pod while rolling\n      maxUnavailable: 1\n');
    expect(shown).toContain('# Defaults written out by the first author.');

    const second = await propose(url, name, args);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('Pull request updated: https://github.example/team/');
    expect(h.github().pulls).toHaveLength(1);
    expect(h.github().requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    // The token went in headers only: never in a URL git or the API saw.
    expect(h.git().requests.some((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect([...h.git().requests, ...h.github().requests].some((r) => r.path.includes(TOKEN))).toBe(false);
    expect(first.stdout + second.stdout).not.toContain(TOKEN);
  });
});

describe('propose where the file is not there', () => {
  it('a --path not in the repository: says so and prints the change to make by hand (exit 1)', async () => {
    const { url, name } = await repoWith();
    const result = await propose(url, name, ['--path', 'clusters/prod']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'Not proposed: --path "clusters/prod": "clusters" is not in the repository.',
    );
    expect(result.stdout).toContain('+    type: RollingUpdate');
    expect(h.github().requests).toEqual([]);
  });
});

describe('propose refuses a change check says can never finish', () => {
  it('does not push, and says why', async () => {
    const { url } = await repoWith();
    const objects = loadObjects(readFileSync(h.dump, 'utf8'));
    const ref = { kind: 'Deployment' as const, namespace: 'vision', name: 'vision-object-tracker' };
    const plan = diagnose(assembleSnapshot(ref, objects)).remediations.find(
      (p) => p.kind === 'set-rolling-update',
    );
    if (!plan) throw new Error('incident A offers set-rolling-update');
    const before = pushes();
    const result = await proposeChange({
      plan,
      finding: { code: plan.addresses, summary: '' },
      manual: [],
      repo: url,
      path: 'apps',
      dryRun: false,
      lang: 'en',
      token: TOKEN,
      github: { apiBase: h.github().apiBase },
      check: () => Promise.resolve({ verdict: 'never-finishes', reason: 'held by its old pods' }),
      against: 'a stub',
    });
    expect(result).toMatchObject({ status: 'refused', check: { verdict: 'never-finishes' } });
    expect(pushes()).toBe(before);
    expect(h.github().requests).toEqual([]);
  });
});

describe('propose refuses hostile repositories, pushing nothing', () => {
  const refused = async (change: (dir: string) => void, extra: string[] = []) => {
    const { url, name } = await repoWith(change);
    const before = pushes();
    const result = await propose(url, name, extra);
    expect(pushes()).toBe(before);
    expect(h.github().requests).toEqual([]);
    return result;
  };

  it('a --path that leads out of the checkout', async () => {
    const result = await refused(() => {}, ['--path', '../..']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--path "\.\.\/\.\." leads out of the repository/);
  });

  it('a symlink among the files, pointing outside', async () => {
    const result = await refused((dir) => symlinkSync('/etc/passwd', join(dir, 'apps/vision/secrets.yaml')));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('"apps/vision/secrets.yaml" is a symlink (refused');
  });

  it('a symlinked folder on the --path', async () => {
    const result = await refused((dir) => symlinkSync('/etc', join(dir, 'etc')), ['--path', 'etc']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('"etc" is a symlink');
  });

  it('a huge file', async () => {
    const result = await refused((dir) =>
      writeFileSync(join(dir, 'apps/vision/big.yaml'), `# ${'x'.repeat(2 * 1024 * 1024)}\n`),
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/"apps\/vision\/big\.yaml" is 209\d+ bytes, over the 1048576/);
  });

  it('a YAML alias bomb', async () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i += 1) {
      const prev = String.fromCharCode(96 + i);
      const next = String.fromCharCode(97 + i);
      bomb.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    }
    const result = await refused((dir) =>
      writeFileSync(join(dir, 'apps/vision/bomb.yaml'), `${bomb.join('\n')}\n`),
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('apps/vision/bomb.yaml: a document repeats aliased values');
  });

  it('anchors in the workload’s own document (an edit there could change other places)', async () => {
    const result = await refused((dir) => {
      const file = join(dir, 'apps/vision/deployment.yaml');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          '  labels:\n    app: vision-object-tracker   # used by the Service',
          '  labels: &labels\n    app: vision-object-tracker',
        ),
      );
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('uses YAML anchors or aliases');
  });

  it('no file holds the workload: says why and prints the change to make by hand (exit 1)', async () => {
    const result = await refused((dir) => {
      const file = join(dir, 'apps/vision/deployment.yaml');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          'name: vision-object-tracker\n  namespace: vision\n  labels',
          'name: other\n  namespace: vision\n  labels',
        ),
      );
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'Not proposed: no YAML file under apps (1 read) holds Deployment vision-object-tracker.',
    );
    expect(result.stdout).toContain('Make this change by hand, in the file applied with kubectl apply:');
    expect(result.stdout).toContain('+    rollingUpdate:');
  });
});
