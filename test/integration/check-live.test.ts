/**
 * `rollout-doctor check` against the simulator: the seed incident's image bump is
 * caught before it is applied (and the simulator, applying it, deadlocks as predicted),
 * the fix it prints lets the same bump finish (applied, the rollout completes), an
 * unchanged manifest starts nothing, a node selection no node satisfies is not a
 * strategy problem, SARIF lands on the manifest's line, and the cluster is read once per
 * namespace however many manifests there are.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { fakeIo } from '../support/cli-io.js';
import { runCli } from '../../src/cli/run-cli.js';
import { writeUnreachableKubeconfig } from '../support/unreachable-kubeconfig.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let dir: string;
let sim: SimClient | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'check-live-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

/** The seed Deployment as its manifest was written (sim/scenarios/gpu-deadlock.yaml). */
function seedManifest(): Json {
  const docs = parseAllDocuments(readFileSync('sim/scenarios/gpu-deadlock.yaml', 'utf8')).map(
    (d) => d.toJS() as Json,
  );
  const found = docs.find((d) => d?.['kind'] === 'Deployment');
  if (!found) throw new Error('no Deployment in the seed scenario');
  return found;
}

function bumped(manifest: Json, image = 'vision/boost-track-app:1.1'): Json {
  const copy = structuredClone(manifest);
  copy['spec']['template']['spec']['containers'][0]['image'] = image;
  return copy;
}

async function started(): Promise<SimClient> {
  sim = await startSimClient({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 }, 'check-live');
  const s = sim.sim;
  await s.settle();
  await s.waitFor(
    () =>
      ((s.get('Deployment', 'vision', 'vision-object-tracker') as Json | undefined)?.['status']?.[
        'availableReplicas'
      ] ?? 0) === 1,
  );
  return sim;
}

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function check(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = fakeIo(stdin);
  const code = await runCli(['check', ...args], io.io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

/** The manifest applied over the live object, as kubectl apply would leave it. */
function applyToSim(s: SimClient, manifest: Json): void {
  const live = structuredClone(s.sim.get('Deployment', 'vision', 'vision-object-tracker')) as Json;
  live['spec']['template'] = manifest['spec']['template'];
  if (manifest['spec']['strategy']) live['spec']['strategy'] = manifest['spec']['strategy'];
  s.sim.apply(live);
}

describe('check against a live cluster', () => {
  it('catches the seed image bump, and the simulator applying it deadlocks as predicted', async () => {
    const s = await started();
    const file = write('bump.yaml', stringify(bumped(seedManifest())));
    const run = await check(['-f', file, '--kubeconfig', s.kubeconfig]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('vision/deployment/vision-object-tracker');
    expect(run.stdout).toContain('CAN NEVER FINISH');
    expect(run.stdout).toContain('template changes: spec.containers[0].image');
    expect(run.stdout).toContain('RolloutSurgeDeadlock');
    expect(run.stdout).toMatch(/maxSurge: 0\n\s+maxUnavailable: 1/);

    applyToSim(s, bumped(seedManifest()));
    // The oracle: the new pod waits for the GPU the old one holds, with the scheduler's own word.
    await s.sim.waitFor(() =>
      s.sim
        .list('Event', 'vision')
        .some(
          (e) =>
            (e as Json)['reason'] === 'FailedScheduling' &&
            /Insufficient nvidia.com\/gpu/.test((e as Json)['message']),
        ),
    );
    const pods = s.sim.list('Pod', 'vision') as Json[];
    expect(pods.filter((p) => p['status']?.['phase'] === 'Pending')).toHaveLength(1);
  });

  it('the fix it prints lets the same bump finish: check says so, and the simulator finishes it', async () => {
    const s = await started();
    const first = await check([
      '-f',
      write('bump.yaml', stringify(bumped(seedManifest()))),
      '--kubeconfig',
      s.kubeconfig,
      '-o',
      'json',
    ]);
    const report = JSON.parse(first.stdout) as Json;
    const fix = report['results'][0]['fix'] as Json;
    expect(report['results'][0]['findings'][0]['code']).toBe('RolloutSurgeDeadlock');
    const fixed = bumped(seedManifest());
    fixed['spec'] = { ...fixed['spec'], ...(parse(fix['yaml'] as string) as Json)['spec'] };
    const second = await check(['-f', write('fixed.yaml', stringify(fixed)), '--kubeconfig', s.kubeconfig]);
    expect(second.stdout).toContain('will finish');
    expect(second.code).toBe(0);

    applyToSim(s, fixed);
    await s.sim.waitFor(() => {
      const d = s.sim.get('Deployment', 'vision', 'vision-object-tracker') as Json;
      const pods = (s.sim.list('Pod', 'vision') as Json[]).filter((p) => !p['metadata']['deletionTimestamp']);
      return (
        d['status']?.['updatedReplicas'] === 1 &&
        d['status']?.['availableReplicas'] === 1 &&
        pods.length === 1 &&
        pods[0]?.['spec']['containers'][0]['image'] === 'vision/boost-track-app:1.1'
      );
    }, SIGNAL_WAIT_MS);
  });

  it('an unchanged manifest starts no rollout, and says so (exit 0)', async () => {
    const s = await started();
    const run = await check([
      '-f',
      write('same.yaml', stringify(seedManifest())),
      '--kubeconfig',
      s.kubeconfig,
    ]);
    expect(run.stdout).toContain('no rollout');
    expect(run.code).toBe(0);
    // The same as a JSON List on stdin, as a pipe from helm or kustomize delivers it.
    const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [seedManifest()] });
    const piped = await check(['-f', '-', '--kubeconfig', s.kubeconfig, '-o', 'json'], list);
    expect((JSON.parse(piped.stdout) as Json)['results'][0]['verdict']).toBe('no-rollout');
    expect(piped.code).toBe(0);
  });

  it('a node selection no node satisfies is Unschedulable, with no strategy fix offered', async () => {
    const s = await started();
    const manifest = bumped(seedManifest());
    manifest['spec']['template']['spec']['nodeSelector'] = { 'kubernetes.io/hostname': 'worker-1' };
    const run = await check([
      '-f',
      write('worker.yaml', stringify(manifest)),
      '--kubeconfig',
      s.kubeconfig,
      '-o',
      'json',
    ]);
    const result = (JSON.parse(run.stdout) as Json)['results'][0];
    expect(result['verdict']).toBe('never-finishes');
    expect(result['findings'][0]['code']).toBe('Unschedulable');
    expect(result['fix']).toBeUndefined();
    expect(run.code).toBe(1);
  });

  it('SARIF puts the finding on the changed line (the image) of the Deployment in a multi-document file', async () => {
    const s = await started();
    const service =
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: tracker\n  namespace: vision\nspec:\n  ports: [{port: 80}]\n';
    const text = `${service}---\n${stringify(bumped(seedManifest()))}`;
    const run = await check(['-f', write('chart.yaml', text), '--kubeconfig', s.kubeconfig, '-o', 'sarif']);
    const sarif = JSON.parse(run.stdout) as Json;
    expect(sarif['version']).toBe('2.1.0');
    const result = sarif['runs'][0]['results'][0] as Json;
    expect(result['ruleId']).toBe('RolloutSurgeDeadlock');
    expect(result['level']).toBe('error');
    const region = result['locations'][0]['physicalLocation']['region'] as Json;
    // The line the pull request changed, not the document's first line.
    const imageLine = text.split('\n').findIndex((l) => l.includes('image: vision/boost-track-app:1.1')) + 1;
    expect(imageLine).toBeGreaterThan(service.split('\n').length + 1);
    expect(region['startLine']).toBe(imageLine);
    expect(result['locations'][0]['physicalLocation']['artifactLocation']['uri']).toContain('chart.yaml');
    expect(run.code).toBe(1);
  });

  it('reads the cluster once per namespace, not once per manifest', async () => {
    const s = await started();
    const many = (n: number): string =>
      Array.from({ length: n }, (_, i) => {
        const m = bumped(seedManifest());
        m['metadata']['name'] = `tracker-${i}`;
        m['spec']['template']['spec']['nodeSelector'] = {};
        m['spec']['template']['spec']['containers'][0]['resources'] = { requests: { cpu: '10m' } };
        return stringify(m);
      }).join('---\n');
    s.sim.clearRequests();
    const few = await check(['-f', write('few.yaml', many(2)), '--kubeconfig', s.kubeconfig, '-o', 'json']);
    const fewRequests = s.sim.requests.length;
    s.sim.clearRequests();
    const lots = await check([
      '-f',
      write('lots.yaml', many(20)),
      '--kubeconfig',
      s.kubeconfig,
      '-o',
      'json',
    ]);
    const lotsRequests = s.sim.requests.length;
    expect((JSON.parse(few.stdout) as Json)['summary']['finishes']).toBe(2);
    expect((JSON.parse(lots.stdout) as Json)['summary']['finishes']).toBe(20);
    expect(lotsRequests).toBe(fewRequests);
  });

  it('exit 2 for a manifest that is not YAML, 3 for a cluster it cannot reach', async () => {
    const bad = await check(['-f', write('bad.yaml', 'kind: Deployment\n  bad: [indent\n')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.yaml:\d+: not YAML or JSON/);
    const kubeconfig = writeUnreachableKubeconfig(join(dir, 'unreachable'));
    const run = await check([
      '-f',
      write('b.yaml', stringify(bumped(seedManifest()))),
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(run.code).toBe(3);
  });
});

describe('check against a dump', () => {
  /** As `kubectl get … -A -o yaml` writes it: a pod of another namespace says every namespace's pods are there. */
  function dumpOf(s: SimClient, kinds: string[]): string {
    const agent = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'node-agent-x', namespace: 'kube-system' },
      spec: { nodeName: 'worker-1', containers: [{ name: 'a', image: 'agent:1' }] },
      status: { phase: 'Running' },
    };
    const items = [...kinds.flatMap((k) => s.sim.list(k)), ...(kinds.includes('Pod') ? [agent] : [])];
    return stringify({ apiVersion: 'v1', kind: 'List', items });
  }

  it('predicts from a dump as from the cluster, and calls a dump without nodes unknown, never fine', async () => {
    const s = await started();
    const manifest = write('bump.yaml', stringify(bumped(seedManifest())));
    const full = write('dump.yaml', dumpOf(s, ['Deployment', 'ReplicaSet', 'Pod', 'Event', 'Node']));
    const run = await check(['-f', manifest, '--from-file', full, '-o', 'json']);
    const result = (JSON.parse(run.stdout) as Json)['results'][0];
    expect(result['findings'][0]['code']).toBe('RolloutSurgeDeadlock');
    expect(run.code).toBe(1);

    const noNodes = write('dump-no-nodes.yaml', dumpOf(s, ['Deployment', 'ReplicaSet', 'Pod', 'Event']));
    const unknown = await check(['-f', manifest, '--from-file', noNodes, '-o', 'json']);
    const verdict = (JSON.parse(unknown.stdout) as Json)['results'][0];
    expect(verdict['verdict']).toBe('unknown');
    expect(verdict['findings'][0]['code']).toBe('IncompleteEvidence');
    expect(unknown.code).toBe(1);
    expect((await check(['-f', manifest, '--from-file', noNodes, '--allow-unknown'])).code).toBe(0);
    // The other arm (issue 68.1): --allow-unknown lets a doubt pass, never a rollout that
    // can never finish; a CI gate that passes it silently is the worst failure there is.
    expect((await check(['-f', manifest, '--from-file', full, '--allow-unknown'])).code).toBe(1);
  });

  it('a finding the team accepted (annotation, baseline) or warns on is reported and does not fail; every other arm still fails', async () => {
    const s = await started();
    const full = write('dump-accept.yaml', dumpOf(s, ['Deployment', 'ReplicaSet', 'Pod', 'Event', 'Node']));
    const annotated = (annotations: Record<string, string>): string => {
      const m = bumped(seedManifest());
      m['metadata']['annotations'] = annotations;
      return write(
        `accept-${Object.keys(annotations).length}-${Object.values(annotations).join('').length}.yaml`,
        stringify(m),
      );
    };
    const reason = { 'rollout-doctor.io/accept-reason': 'GPU nodes are added before this ships (OPS-12)' };
    // Accepted on the object, with a reason: reported with it, exit 0; SARIF marks it suppressed in the source.
    const accepted = annotated({ 'rollout-doctor.io/accept': 'RolloutSurgeDeadlock', ...reason });
    const ok = await check(['-f', accepted, '--from-file', full]);
    expect(ok.stdout).toContain('RolloutSurgeDeadlock: ');
    expect(ok.stdout).toContain(
      '(accepted in the annotation: GPU nodes are added before this ships (OPS-12))',
    );
    expect(ok.code).toBe(0);
    const sarif = JSON.parse(
      (await check(['-f', accepted, '--from-file', full, '-o', 'sarif'])).stdout,
    ) as Json;
    expect(sarif['runs'][0]['results'][0]['suppressions']).toEqual([
      {
        kind: 'inSource',
        status: 'accepted',
        justification: 'GPU nodes are added before this ships (OPS-12)',
      },
    ]);
    // Another code accepted, or no reason given: not accepted, exit 1 (the latter says why).
    expect(
      (
        await check([
          '-f',
          annotated({ 'rollout-doctor.io/accept': 'Unschedulable', ...reason }),
          '--from-file',
          full,
        ])
      ).code,
    ).toBe(1);
    const bare = await check([
      '-f',
      annotated({ 'rollout-doctor.io/accept': 'RolloutSurgeDeadlock' }),
      '--from-file',
      full,
    ]);
    expect(bare.code).toBe(1);
    expect(bare.stdout).toContain(
      'rollout-doctor.io/accept without rollout-doctor.io/accept-reason: not accepted',
    );

    // A baseline: the entry for this workload and code accepts it; one for another workload does not, and says so.
    const plain = write('accept-plain.yaml', stringify(bumped(seedManifest())));
    const baseline = (target: string): string =>
      write(
        `baseline-${target.replace(/\//g, '_')}.yaml`,
        stringify({ accepted: [{ target, code: 'RolloutSurgeDeadlock', reason: 'known, OPS-12' }] }),
      );
    expect(
      (
        await check([
          '-f',
          plain,
          '--from-file',
          full,
          '--baseline',
          baseline('vision/Deployment/vision-object-tracker'),
        ])
      ).code,
    ).toBe(0);
    const other = await check([
      '-f',
      plain,
      '--from-file',
      full,
      '--baseline',
      baseline('vision/Deployment/other'),
    ]);
    expect(other.code).toBe(1);
    expect(other.stdout).toContain(
      'baseline entry vision/Deployment/other:RolloutSurgeDeadlock matched no finding',
    );
    const broken = await check([
      '-f',
      plain,
      '--from-file',
      full,
      '--baseline',
      write('baseline-bad.yaml', 'accepted: [{target: x}]'),
    ]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('not a baseline');

    // --warn CODE: that code no longer fails; another code's warning does not hide this one.
    expect((await check(['-f', plain, '--from-file', full, '--warn', 'RolloutSurgeDeadlock'])).code).toBe(0);
    expect((await check(['-f', plain, '--from-file', full, '--warn', 'IncompleteEvidence'])).code).toBe(1);
    expect((await check(['-f', plain, '--from-file', full, '--warn', 'Nope'])).code).toBe(2);
  });
});
