/**
 * check reads a manifest's YAML as kubectl does (src/check/kubectl-yaml.ts): the same
 * text through the real kubectl (`create --dry-run=client -o json`, which decodes it
 * with sigs.k8s.io/yaml and prints what it would send) and through parseManifests gives
 * the same object. Each field below is one of go-yaml v2's YAML 1.1 readings that a
 * YAML 1.2 reader gets wrong (issue 67.3): merge keys, underscores, binary, hex and octal
 * integers (their prefixes in either case, as strconv.ParseInt reads them), 1.1 booleans, and the base-60 numbers and dates go-yaml leaves strings.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, type Document } from 'yaml';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { KUBECTL_YAML } from '../../src/check/kubectl-yaml.js';
import { parseManifests } from '../../src/check/manifests.js';

const run = promisify(execFile);

const MANIFEST = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: yaml11
  labels: {app: web}
spec:
  replicas: 0b11
  minReadySeconds: 1_0
  revisionHistoryLimit: 0o7
  progressDeadlineSeconds: 0600
  paused: off
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 0x1, maxUnavailable: 0}}
  template:
    metadata:
      labels: {app: web}
    spec:
      terminationGracePeriodSeconds: 0O1_4
      containers:
      - name: app
        image: web:2
        ports: [{containerPort: 8_080, hostPort: 0X1F90}, {containerPort: 0B1010000, name: b}]
        <<:
          resources:
            requests: {cpu: "5000", memory: 1_000}
`;

let sim: Simulator;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'check-yaml-'));
  sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml' });
  await sim.writeKubeconfig(join(dir, 'kubeconfig'));
});

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

/** What kubectl would send for `text` (a client-side dry run decodes it and prints it). */
async function kubectlReads(text: string): Promise<Record<string, unknown>> {
  const file = join(dir, 'manifest.yaml');
  await writeFile(file, text);
  const args = ['--kubeconfig', join(dir, 'kubeconfig'), 'create', '--dry-run=client'];
  const { stdout } = await run('kubectl', [...args, '--validate=false', '-o', 'json', '-f', file]);
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('check reads YAML as kubectl does', () => {
  it('YAML 1.1 integers, booleans and merge keys: the object kubectl would send', async () => {
    const sent = (await kubectlReads(MANIFEST)) as { metadata: Record<string, unknown>; spec: unknown };
    const [read] = parseManifests(MANIFEST, 'manifest.yaml').workloads;
    expect(read?.object.spec).toEqual(sent.spec);
    expect(read?.object.metadata.labels).toEqual(sent.metadata['labels']);
    // The request under `<<:` is the one kubectl sends (a YAML 1.2 reader kept a `<<` key).
    const [container] = (read?.object.spec.template?.spec.containers ?? []) as {
      resources?: { requests?: Record<string, unknown> };
    }[];
    expect(container?.resources?.requests).toEqual({ cpu: '5000', memory: 1000 });
  });

  it('base-60 numbers and dates stay strings, as go-yaml v2 leaves them', async () => {
    // ConfigMap data must be strings: kubectl takes these unquoted because go-yaml v2
    // reads them as strings (a YAML 1.1 reader makes a number and a date of them).
    const text =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: strings}\ndata: {clock: 190:20:30, day: 2001-12-14}\n';
    const sent = (await kubectlReads(text)) as { data: Record<string, unknown> };
    expect(sent.data).toEqual({ clock: '190:20:30', day: '2001-12-14' });
    const [doc] = parseAllDocuments(text, KUBECTL_YAML) as Document[];
    expect((doc?.toJS() as { data: unknown }).data).toEqual(sent.data);
  });
});
