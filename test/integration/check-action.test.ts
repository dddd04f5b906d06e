/**
 * The repository's GitHub Action (action.yml) as a runner runs it: its script, with its
 * inputs as the environment the runner gives it, against a `docker` that runs the command
 * line here instead of in the image (the image's path to main.js and the mounts mapped).
 * The step's exit is check's, the SARIF file is written on every outcome, and an input
 * is data, never shell.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments, stringify } from 'yaml';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- YAML read back

const REPO = resolve('.');
const action = parse(readFileSync('action.yml', 'utf8')) as Json;
const step = action['runs']['steps'][0] as Json;
const dir = mkdtempSync(join(tmpdir(), 'rd-action-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** docker run [--rm -i --network N -w W -v SRC:DST[:ro]…] IMAGE node MAIN ARGS…, run here. */
const FAKE_DOCKER = `#!/usr/bin/env bash
shift
declare -A mount
while [ $# -gt 0 ]; do
  case "$1" in
    --rm|-i) shift ;;
    --network|-w) shift 2 ;;
    -v) IFS=: read -r src dst _ <<< "$2"; mount[$dst]=$src; shift 2 ;;
    *) break ;;
  esac
done
[ "$1" = "$EXPECT_IMAGE" ] || { echo "fake docker: image $1" >&2; exit 125; }
echo run >> "$DOCKER_RUNS"
[ "$2 $3" = "node /app/dist/src/cli/main.js" ] || { echo "fake docker: entry $2 $3" >&2; exit 125; }
shift 3
args=()
for a in "$@"; do
  if [ -n "\${mount[$a]:-}" ]; then args+=("\${mount[$a]}"); else args+=("$a"); fi
done
cd "\${mount[/work]}" && exec node "$REPO/bin/rollout-doctor.js" "\${args[@]}"
`;

const bin = join(dir, 'bin');
mkdirSync(bin);
writeFileSync(join(bin, 'docker'), FAKE_DOCKER);
chmodSync(join(bin, 'docker'), 0o755);

function workspace(name: string): string {
  const ws = join(dir, name);
  mkdirSync(join(ws, 'k8s'), { recursive: true });
  const dump = readFileSync('test/fixtures/dumps/incident-a-gpu-surge.yaml', 'utf8');
  const items = parseAllDocuments(dump).flatMap((d) => {
    const value = d.toJS() as Json;
    return (value['items'] as Json[] | undefined) ?? [value];
  });
  // A pod of another namespace: the dump holds every namespace's pods, so every node's count.
  const agent = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'agent', namespace: 'ops' },
    spec: { nodeName: 'gpu-node-1', containers: [{ name: 'a', image: 'agent:1' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
  writeFileSync(
    join(ws, 'cluster.yaml'),
    stringify({ apiVersion: 'v1', kind: 'List', items: [...items, agent] }),
  );
  const live = items.find(
    (i) => i['kind'] === 'Deployment' && i['metadata']['name'] === 'vision-object-tracker',
  ) as Json;
  const manifest = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'vision-object-tracker', namespace: 'vision' },
    spec: { ...live['spec'], template: structuredClone(live['spec']['template']) },
  };
  manifest.spec.template.spec.containers[0].image = 'registry.example.com/vision/object-tracker:9.9.9';
  writeFileSync(join(ws, 'k8s', 'tracker.yaml'), stringify(manifest));
  return ws;
}

function runStep(
  ws: string,
  inputs: Record<string, string>,
): { status: number | null; out: string; runs: number } {
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env['PATH'] ?? ''}`,
    HOME: dir,
    GITHUB_WORKSPACE: ws,
    REPO,
    EXPECT_IMAGE: action['inputs']['image']['default'] as string,
    DOCKER_RUNS: join(ws, '.docker-runs'),
  };
  rmSync(join(ws, '.docker-runs'), { force: true });
  // The runner's expressions: each env entry `${{ inputs.x }}` becomes the input or its default.
  for (const [name, value] of Object.entries(step['env'] as Record<string, string>)) {
    const input = /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(value)?.[1] ?? '';
    env[name] = inputs[input] ?? (action['inputs'][input]?.['default'] as string | undefined) ?? '';
  }
  const run = spawnSync('bash', ['-e', '-c', step['run'] as string], { cwd: ws, env, encoding: 'utf8' });
  const runs = existsSync(join(ws, '.docker-runs')) ? readFileSync(join(ws, '.docker-runs'), 'utf8') : '';
  return {
    status: run.status,
    out: `${run.stdout}${run.stderr}`,
    runs: runs.split('\n').filter(Boolean).length,
  };
}

describe('the GitHub Action', () => {
  it('fails the step as check does and writes SARIF on every outcome; inputs are never shell', () => {
    const ws = workspace('one');
    const failed = runStep(ws, { path: 'k8s', 'from-file': 'cluster.yaml' });
    expect(failed.out).toContain('CAN NEVER FINISH');
    expect(failed.status).toBe(1);
    // One run reads the cluster once, for the log and the SARIF file both.
    expect(failed.runs).toBe(1);
    const sarif = JSON.parse(readFileSync(join(ws, 'rollout-doctor.sarif'), 'utf8')) as Json;
    const result = sarif['runs'][0]['results'][0] as Json;
    expect(result['ruleId']).toBe('RolloutSurgeDeadlock');
    // Relative to the workspace, so code scanning finds the file.
    expect(result['locations'][0]['physicalLocation']['artifactLocation']['uri']).toBe('k8s/tracker.yaml');

    // Both arms of a baseline: without it the step fails, with the finding accepted in it it passes.
    const warned = runStep(ws, { path: 'k8s', 'from-file': 'cluster.yaml', baseline: '' });
    expect(warned.status).toBe(1);
    writeFileSync(
      join(ws, 'baseline.yaml'),
      stringify({
        accepted: [
          {
            target: 'vision/Deployment/vision-object-tracker',
            code: 'RolloutSurgeDeadlock',
            reason: 'OPS-12',
          },
        ],
      }),
    );
    expect(runStep(ws, { path: 'k8s', 'from-file': 'cluster.yaml', baseline: 'baseline.yaml' }).status).toBe(
      0,
    );

    // A path that is shell to a careless script: data here, exit 2, and the SARIF says why.
    const evil = runStep(ws, {
      path: 'k8s/$(touch pwned).yaml',
      'from-file': 'cluster.yaml',
      sarif: 'evil.sarif',
    });
    expect(evil.status).toBe(2);
    expect(existsSync(join(ws, 'pwned'))).toBe(false);
    const notice = JSON.parse(readFileSync(join(ws, 'evil.sarif'), 'utf8')) as Json;
    expect(notice['runs'][0]['invocations'][0]['executionSuccessful']).toBe(false);
  });
});
