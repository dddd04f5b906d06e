/**
 * check judges what the apply will store (issue 64.1, DESIGN.md §4e): a manifest that
 * leaves out `strategy` keeps the live strategy where its owner never set it, and gets
 * the default where its owner set it and dropped it. Each arm against the simulator
 * with the real kubectl: what check says, then `kubectl apply` of the same manifest, and
 * the rollout doing what check said.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { fakeIo } from '../support/cli-io.js';
import { kubectlIn } from '../support/kubectl-run.js';
import { runCli } from '../../src/cli/run-cli.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

let dir: string;
let sim: SimClient | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'check-stored-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The seed tracker (1 replica, the node's one GPU) as a manifest without status or strategy. */
function manifest(image: string, strategy?: Json): Json {
  const found = parseAllDocuments(readFileSync('sim/scenarios/gpu-deadlock.yaml', 'utf8'))
    .map((d) => d.toJS() as Json)
    .find((d) => d?.['kind'] === 'Deployment');
  if (!found) throw new Error('no Deployment in the seed scenario');
  const copy = structuredClone(found);
  delete copy['status'];
  delete copy['spec']['strategy'];
  copy['spec']['template']['spec']['containers'][0]['image'] = image;
  if (strategy) copy['spec']['strategy'] = strategy;
  return copy;
}

function write(name: string, object: Json): string {
  const file = join(dir, name);
  writeFileSync(file, stringify(object));
  return file;
}

async function started(): Promise<SimClient> {
  sim = await startSimClient({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 }, 'check-stored');
  return sim;
}

async function kubectl(s: SimClient, args: string[]): Promise<void> {
  const run = await kubectlIn(s.kubeconfig, 'vision', args);
  if (run.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${run.stderr}`);
}

function availableWith(s: SimClient, image: string): boolean {
  const d = s.sim.get('Deployment', 'vision', 'vision-object-tracker') as Json;
  const pods = (s.sim.list('Pod', 'vision') as Json[]).filter((p) => !p['metadata']['deletionTimestamp']);
  return (
    d['status']?.['availableReplicas'] === 1 &&
    pods.length === 1 &&
    pods[0]?.['spec']['containers'][0]['image'] === image &&
    pods[0]?.['status']?.['phase'] === 'Running'
  );
}

async function check(s: SimClient, file: string): Promise<{ code: number; report: Json; text: string }> {
  const io = fakeIo();
  const code = await runCli(['check', '-f', file, '--kubeconfig', s.kubeconfig, '-o', 'json'], io.io);
  const text = fakeIo();
  await runCli(['check', '-f', file, '--kubeconfig', s.kubeconfig], text.io);
  return { code, report: JSON.parse(io.stdout()) as Json, text: text.stdout() };
}

describe('check judges the strategy the apply will store', () => {
  it('kept: the strategy was set by kubectl patch, never by the manifest: the bump finishes, and does', async () => {
    const s = await started();
    await kubectl(s, ['apply', '-f', write('v1.yaml', manifest('vision/boost-track-app:1.0'))]);
    await kubectl(s, [
      'patch',
      'deployment/vision-object-tracker',
      '--type=merge',
      '-p',
      '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":0,"maxUnavailable":1}}}}',
    ]);
    const bump = write('v2.yaml', manifest('vision/boost-track-app:1.1'));
    const { code, report, text } = await check(s, bump);
    expect(report['results'][0]['verdict']).toBe('finishes');
    expect(report['results'][0]['omitted'][0]).toMatchObject({ field: 'strategy', stored: 'live' });
    expect(text).toContain('The manifest leaves out spec.strategy: the apply keeps the live value');
    expect(code).toBe(0);
    await kubectl(s, ['apply', '-f', bump]);
    await s.sim.waitFor(() => availableWith(s, 'vision/boost-track-app:1.1'), SIGNAL_WAIT_MS);
  });

  it('dropped: the manifest kubectl last applied set it and this one does not: the default deadlocks, and does', async () => {
    const s = await started();
    const surgeless = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
    await kubectl(s, ['apply', '-f', write('v1.yaml', manifest('vision/boost-track-app:1.0', surgeless))]);
    const bump = write('v2.yaml', manifest('vision/boost-track-app:1.1'));
    const { code, report } = await check(s, bump);
    expect(report['results'][0]['verdict']).toBe('never-finishes');
    expect(report['results'][0]['omitted'][0]).toMatchObject({ field: 'strategy', stored: 'default' });
    expect(code).toBe(1);
    await kubectl(s, ['apply', '-f', bump]);
    await s.sim.waitFor(
      () =>
        (s.sim.list('Pod', 'vision') as Json[]).some(
          (p) =>
            p['status']?.['phase'] === 'Pending' &&
            p['spec']['containers'][0]['image'] === 'vision/boost-track-app:1.1',
        ),
      SIGNAL_WAIT_MS,
    );
    const d = s.sim.get('Deployment', 'vision', 'vision-object-tracker') as Json;
    expect(d['spec']['strategy']['rollingUpdate']).toEqual({ maxSurge: '25%', maxUnavailable: '25%' });
  });

  it('nothing records who set it: the two outcomes differ, so not known (exit 1), both said', async () => {
    const s = await started();
    // The scenario's object, changed in place: no last-applied, no field manager.
    const live = structuredClone(s.sim.get('Deployment', 'vision', 'vision-object-tracker')) as Json;
    live['spec']['strategy'] = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
    s.sim.apply(live);
    const { code, report } = await check(s, write('v2.yaml', manifest('vision/boost-track-app:1.1')));
    const result = report['results'][0] as Json;
    expect(result['verdict']).toBe('unknown');
    expect(result['findings'][0]['code']).toBe('IncompleteEvidence');
    expect(result['findings'][0]['summary']).toMatch(
      /turns on what the apply stores for spec\.strategy.*with the live value it finishes; with the default it can never finish/,
    );
    expect(code).toBe(1);
  });
});
