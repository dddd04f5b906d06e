/**
 * What propose's integration tests share: a real git server on loopback with a fresh
 * repository per test (a fixture folder, changed as the test needs), a GitHub stand-in,
 * incident A's dump completed with what `kubectl get -A` adds, and the command run
 * in-process with the token and the API base in its environment.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { k8sTools } from '../../scripts/k8s-tools.js';
import { fakeIo } from './cli-io.js';
import { bareRepo, startGitServer, type GitServer } from './git-http-server.js';
import { startGitHubStandIn, type GitHubStandIn } from './github-standin.js';

export const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;
export const TOKEN = 'test-token';

export interface Harness {
  readonly root: string;
  readonly dump: string;
  git(): GitServer;
  github(): GitHubStandIn;
  /** A fresh repository from the fixture folder `from`, changed by `change`. */
  repo(from: string, change?: (dir: string) => void): Promise<{ url: string; bare: string; name: string }>;
  /** `rollout-doctor propose` for incident A's Deployment with set-rolling-update, `--from-file` the dump. */
  propose(url: string, extra: string[]): Promise<{ status: number; stdout: string; stderr: string }>;
  /** Pushes the git server received. */
  pushes(): number;
}

/** Call at a test file's top level. */
export function proposeHarness(): Harness {
  const root = mkdtempSync(join(tmpdir(), 'rollout-doctor-propose-test-'));
  const dump = join(root, 'cluster.yaml');
  writeFileSync(
    dump,
    `${readFileSync(join(FIXTURES, 'dumps/incident-a-gpu-surge.yaml'), 'utf8')}\n---\n${readFileSync(join(FIXTURES, 'propose/cluster-extra.yaml'), 'utf8')}`,
  );
  const tools = k8sTools();
  let git: GitServer | undefined;
  let github: GitHubStandIn | undefined;
  let repos = 0;
  beforeAll(async () => {
    git = await startGitServer(root);
  });
  afterAll(async () => {
    await git?.close();
    rmSync(root, { recursive: true, force: true });
  });
  afterEach(async () => {
    await github?.close();
    github = undefined;
  });
  const server = (): GitServer => {
    if (!git) throw new Error('the git server starts in beforeAll');
    return git;
  };
  return {
    root,
    dump,
    git: server,
    github: () => {
      if (!github) throw new Error('no repository made in this test');
      return github;
    },
    async repo(from, change = () => {}) {
      repos += 1;
      const name = `shop${repos}`;
      const files = join(root, 'files', name);
      mkdirSync(files, { recursive: true });
      cpSync(join(FIXTURES, from), files, { recursive: true });
      change(files);
      const bare = bareRepo(root, 'team', name, files);
      github = await startGitHubStandIn('team', name);
      return { url: server().url('team', name), bare, name };
    },
    async propose(url, extra) {
      const run = fakeIo();
      run.io.env = {
        ROLLOUT_DOCTOR_GIT_TOKEN: TOKEN,
        ROLLOUT_DOCTOR_GITHUB_API: github?.apiBase ?? '',
        ROLLOUT_DOCTOR_KUBECTL: tools.kubectl,
        ROLLOUT_DOCTOR_HELM: tools.helm,
      };
      const status = await runCli(
        [
          'propose',
          'deploy/vision-object-tracker',
          '-n',
          'vision',
          '--remediation',
          'set-rolling-update',
          '--repo',
          url,
          '--from-file',
          dump,
          ...extra,
        ],
        run.io,
      );
      return { status, stdout: run.stdout(), stderr: run.stderr() };
    },
    pushes: () =>
      server().requests.filter((r) => r.method === 'POST' && r.path.endsWith('/git-receive-pack')).length,
  };
}
