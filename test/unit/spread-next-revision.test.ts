/**
 * A topology spread constraint keyed on the revision (`matchLabelKeys:
 * [pod-template-hash]`, the lasting fix the tool itself proposes) counts only pods of
 * the incoming pod's revision (PodTopologySpread merges the key's value into the
 * selector). The next revision's first pod carries a hash no pod has yet, so the old
 * pods no longer count against it; without the key they do.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

/** Zones a (a1 full, a2 roomy) and b (b1 full); web: 3 replicas of 6 cpu, two in zone a, one in b, spread by zone. */
const DUMP = join(import.meta.dirname, '../fixtures/dumps/spread-match-label-keys.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-spread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function manifest(keyed: boolean): string {
  const file = join(dir, `web-${keyed ? 'keyed' : 'plain'}.yaml`);
  writeFileSync(
    file,
    `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, labels: {app: web}}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: app
          image: reg/web:2
          resources: {requests: {cpu: '6', memory: 4Gi}, limits: {cpu: '6', memory: 4Gi}}
      topologySpreadConstraints:
        - labelSelector: {matchLabels: {app: web}}
${keyed ? '          matchLabelKeys: [pod-template-hash]\n' : ''}          maxSkew: 1
          topologyKey: topology.kubernetes.io/zone
          whenUnsatisfiable: DoNotSchedule
`,
  );
  return file;
}

/**
 * The dump with the live Deployment applied by kubectl from a manifest that set the key:
 * a manifest that drops it then removes it (kubectl's three-way merge). With no owner
 * recorded, whether the apply keeps the live key would not be known.
 */
function appliedDump(): string {
  const dump = JSON.parse(readFileSync(DUMP, 'utf8')) as { items: Record<string, any>[] }; // eslint-disable-line @typescript-eslint/no-explicit-any -- fixture
  const deployment = dump.items.find((o) => o['kind'] === 'Deployment');
  if (!deployment) throw new Error('no Deployment in the fixture');
  deployment['metadata']['annotations']['kubectl.kubernetes.io/last-applied-configuration'] = JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      template: {
        spec: {
          topologySpreadConstraints: deployment['spec']['template']['spec']['topologySpreadConstraints'],
        },
      },
    },
  });
  const file = join(dir, 'dump.json');
  writeFileSync(file, JSON.stringify(dump));
  return file;
}

async function check(file: string): Promise<string> {
  const f = fakeIo();
  await runCli(['check', '-f', file, '--from-file', appliedDump()], f.io);
  return f.stdout();
}

describe('the next revision and a spread keyed on its hash', () => {
  it('keyed on pod-template-hash: the old pods are not counted against the first new pod', async () => {
    const out = await check(manifest(true));
    expect(out).not.toMatch(/topology spread \(topology\.kubernetes\.io\/zone=zone-a, maxSkew 1\)/);
  });

  it('not keyed: the old pods count, and the zone is full for it', async () => {
    const out = await check(manifest(false));
    expect(out).toMatch(/topology spread \(topology\.kubernetes\.io\/zone=zone-a, maxSkew 1\)/);
  });
});
