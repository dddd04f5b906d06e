/**
 * check judges the pod template the apply stores: a live template field the manifest
 * leaves out stays where its owner never set it (kubectl's three-way merge removes only
 * what the last-applied configuration lists; server-side apply and Helm keep what others
 * own), so
 * - re-applying the unchanged manifest after `kubectl rollout restart` (its restartedAt
 *   annotation never in the last-applied configuration) starts no rollout;
 * - a nodeSelector a `kubectl patch` added stays on the new pods: its one a100 node is held
 *   by the old pod, so the 1-replica GPU rollout can never finish.
 * Each beside the arm where the owner did set the field and the manifest drops it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- fixtures

const dumps = {
  'check-kept-restarted-at': fixtureDump('check-kept-restarted-at.json'),
  'check-kept-node-selector': fixtureDump('check-kept-node-selector.json'),
  'check-kept-container-resources': fixtureDump('check-kept-container-resources.json'),
};

const dir = mkdtempSync(join(tmpdir(), 'rd-kept-template-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `check` of the fixture's manifest (edited by `change`) against its dump, the dump's Deployment edited by `edit`. */
async function check(
  fixture: keyof typeof dumps,
  edit?: (deployment: Json) => void,
  change?: (manifest: Json) => void,
): Promise<{ code: number; result: Json }> {
  let manifest = join(import.meta.dirname, '../fixtures/dumps', `${fixture}-manifest.json`);
  if (change) {
    const m = JSON.parse(readFileSync(manifest, 'utf8')) as Json;
    change(m);
    manifest = join(dir, `m-${String(Math.random()).slice(2)}.json`);
    writeFileSync(manifest, JSON.stringify(m));
  }
  const editItems = (items: DumpItem[]): DumpItem[] => {
    const deployment = items.find((o) => o.kind === 'Deployment');
    if (deployment) edit?.(deployment as Json);
    return items;
  };
  const { status, stdout } = await dumps[fixture].cli(
    ['check', '-f', manifest, '-o', 'json'],
    edit && editItems,
  );
  return { code: status, result: (JSON.parse(stdout) as { results: Json[] }).results[0] ?? {} };
}

/** The last-applied configuration with its pod template edited by `change`. */
function lastApplied(deployment: Json, change: (template: Json) => void): void {
  const key = 'kubectl.kubernetes.io/last-applied-configuration';
  const applied = JSON.parse(deployment['metadata']['annotations'][key] as string) as Json;
  change(applied['spec']['template']);
  deployment['metadata']['annotations'][key] = JSON.stringify(applied);
}

describe('the template as the apply stores it', () => {
  it('the restartedAt annotation kubectl rollout restart wrote stays: the unchanged manifest starts no rollout', async () => {
    const { code, result } = await check('check-kept-restarted-at');
    expect(result['verdict']).toBe('no-rollout');
    expect(code).toBe(0);
  });

  it('the same annotation once applied by the owner and dropped now: removed, a template change', async () => {
    const { result } = await check('check-kept-restarted-at', (d) =>
      lastApplied(d, (t) => {
        t['metadata']['annotations'] = { 'kubectl.kubernetes.io/restartedAt': '2026-11-15T10:00:00Z' };
      }),
    );
    expect(result['verdict']).not.toBe('no-rollout');
    expect(result['changes']).toContain('metadata.annotations');
  });

  it("a nodeSelector kubectl patch added stays: the new pod may use only the old pod's a100 node, can never finish", async () => {
    const { code, result } = await check('check-kept-node-selector');
    expect(result['verdict']).toBe('never-finishes');
    expect(result['changes']).toEqual(['spec.containers[0].image']);
    expect(code).toBe(1);
  });

  it('the nodeSelector once applied by the owner and dropped now: removed, the free t4 node takes the new pod', async () => {
    const { code, result } = await check('check-kept-node-selector', (d) =>
      lastApplied(d, (t) => {
        t['spec']['nodeSelector'] = { pool: 'a100' };
      }),
    );
    expect(result['verdict']).toBe('finishes');
    expect(result['changes']).toContain('spec.nodeSelector');
    expect(code).toBe(0);
  });

  /** No owner recorded: no last-applied configuration, no managedFields (a plain `kubectl get -o yaml`). */
  const ownerless = (d: Json): void => {
    delete d['metadata']['annotations']['kubectl.kubernetes.io/last-applied-configuration'];
    delete d['metadata']['managedFields'];
  };

  it('the nodeSelector with no owner recorded: kept or removed is not known, and the verdict turns on it', async () => {
    const { code, result } = await check('check-kept-node-selector', ownerless);
    expect(result['verdict']).toBe('unknown');
    expect(result['findings'][0]['summary']).toContain('spec.template.spec.nodeSelector');
    expect(result['omitted']).toEqual([
      expect.objectContaining({
        field: 'template.spec.nodeSelector',
        stored: 'unknown',
        live: { pool: 'a100' },
      }),
    ]);
    expect(code).toBe(1);
  });

  it('with no owner recorded and a selector both ways allow: judged as it is, the field listed', async () => {
    const { result } = await check('check-kept-node-selector', (d) => {
      ownerless(d);
      // Both GPU nodes carry the selected pool: kept or not, the free one takes the new pod.
      d['spec']['template']['spec']['nodeSelector'] = { 'kubernetes.io/os': 'linux' };
    });
    expect(result['verdict']).toBe('finishes');
    expect(result['omitted']).toEqual([expect.objectContaining({ field: 'template.spec.nodeSelector' })]);
  });

  // Containers merge by name: a container's field the owner never set stays on its namesake.
  it('a GPU request kubectl set resources added stays on the container: the new pod needs the held GPU, can never finish', async () => {
    const { code, result } = await check('check-kept-container-resources');
    expect(result['verdict']).toBe('never-finishes');
    expect(result['changes']).toEqual(['spec.containers[0].image']);
    expect(code).toBe(1);
  });

  it('the same request once applied by the owner and dropped now: removed, the new pod fits', async () => {
    const { code, result } = await check('check-kept-container-resources', (d) =>
      lastApplied(d, (t) => {
        t['spec']['containers'][0]['resources'] = { limits: { 'nvidia.com/gpu': '1' } };
      }),
    );
    expect(result['verdict']).toBe('finishes');
    expect(result['changes']).toContain('spec.containers[0].resources');
    expect(code).toBe(0);
  });

  /** The Deployment applied server-side, its container entry as `entry`; `kubectl set` holding resources too where `setToo`. */
  const serverSide = (entry: Json, setToo: boolean) => (d: Json) => {
    delete d['metadata']['annotations']['kubectl.kubernetes.io/last-applied-configuration'];
    const containers = (fields: Json): Json => ({
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"app"}': fields } } } },
    });
    d['metadata']['managedFields'] = [
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
        fieldsV1: containers(entry),
      },
      ...(setToo
        ? [
            {
              manager: 'kubectl-set',
              operation: 'Update',
              apiVersion: 'apps/v1',
              fieldsType: 'FieldsV1',
              fieldsV1: containers({ 'f:resources': {} }),
            },
          ]
        : []),
    ];
  };

  it('server-side apply that owns the entry (k:{"name":"app"}) with its resources and drops them: removed, finishes', async () => {
    const { result } = await check(
      'check-kept-container-resources',
      serverSide({ '.': {}, 'f:name': {}, 'f:image': {}, 'f:resources': { 'f:limits': {} } }, false),
    );
    expect(result['verdict']).toBe('finishes');
  });

  it('server-side apply: the container entry its manager owns (k:{"name":"app"}) without resources keeps them', async () => {
    const { result } = await check(
      'check-kept-container-resources',
      serverSide({ '.': {}, 'f:name': {}, 'f:image': {} }, true),
    );
    expect(result['verdict']).toBe('never-finishes');
  });

  it('an ownerless selector decides past the first ten changes shown: not known still', async () => {
    const env = (value: string) => Array.from({ length: 11 }, (_, i) => ({ name: `V${i}`, value }));
    const { result } = await check(
      'check-kept-node-selector',
      (d) => {
        ownerless(d);
        d['spec']['template']['spec']['containers'][0]['env'] = env('old');
      },
      (m) => {
        m['spec']['template']['spec']['containers'][0]['env'] = env('new');
      },
    );
    expect(result['changes']).toHaveLength(10);
    expect(result['verdict']).toBe('unknown');
  });

  it('an ownerless selector key with dots is kept as the one key it is: both ways finish', async () => {
    const zone = 'topology.kubernetes.io/zone';
    const manifest = join(dir, 'm-zone.json');
    const m = JSON.parse(
      readFileSync(
        join(import.meta.dirname, '../fixtures/dumps/check-kept-node-selector-manifest.json'),
        'utf8',
      ),
    ) as Json;
    m['spec']['template']['spec']['nodeSelector'] = { 'kubernetes.io/os': 'linux' };
    writeFileSync(manifest, JSON.stringify(m));
    const { stdout } = await dumps['check-kept-node-selector'].cli(
      ['check', '-f', manifest, '-o', 'json'],
      (items) =>
        items.map((o) => {
          const item = o as Json;
          // Both GPU nodes are in zone-a: kept or removed, the free one takes the new pod.
          if (item['kind'] === 'Node') item['metadata']['labels'][zone] = 'zone-a';
          if (item['kind'] === 'Deployment') {
            ownerless(item);
            item['spec']['template']['spec']['nodeSelector'] = {
              'kubernetes.io/os': 'linux',
              [zone]: 'zone-a',
            };
          }
          return o;
        }),
    );
    const result = (JSON.parse(stdout) as { results: Json[] }).results[0] ?? {};
    expect(result['omitted']).toEqual([
      expect.objectContaining({ field: `template.spec.nodeSelector["${zone}"]`, live: 'zone-a' }),
    ]);
    expect(result['verdict']).toBe('finishes');
  });

  it('a live container the manifest does not name, its owner never set: kept, its GPU held, can never finish', async () => {
    const { result } = await check('check-kept-container-resources', (d) => {
      const spec = d['spec']['template']['spec'];
      // The app asks for no GPU; a second container (kubectl patch) asks for the one GPU.
      spec['containers'] = [
        { name: 'app', image: 'a:1' },
        { name: 'infer', image: 'i:1', resources: { limits: { 'nvidia.com/gpu': '1' } } },
      ];
    });
    expect(result['verdict']).toBe('never-finishes');
  });
});

describe('keyed lists as the apply merges them (patchMergeKey)', () => {
  /**
   * The GPU case with the GPU taken out and a port instead: the old pod and the live
   * template bind hostPort 8080 (a `kubectl patch` added it to the port entry); the
   * manifest lists the port by containerPort alone. `appliedPort`: the port entry as
   * the last-applied configuration has it.
   */
  async function portCase(appliedPort: Json): Promise<Json> {
    const port = { containerPort: 8080, hostPort: 8080, protocol: 'TCP' };
    const manifest = JSON.parse(
      readFileSync(
        join(import.meta.dirname, '../fixtures/dumps/check-kept-container-resources-manifest.json'),
        'utf8',
      ),
    ) as Json;
    manifest['spec']['template']['spec']['containers'][0]['ports'] = [{ containerPort: 8080 }];
    const file = join(dir, `port-${String(Math.random()).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(manifest));
    const { stdout } = await dumps['check-kept-container-resources'].cli(
      ['check', '-f', file, '-o', 'json'],
      (items) => {
        for (const item of items as Json[]) {
          const spec = item['kind'] === 'Pod' ? item['spec'] : item['spec']?.['template']?.['spec'];
          if (!spec?.['containers']) continue;
          spec['containers'][0]['resources'] = {};
          spec['containers'][0]['ports'] = [port];
          if (item['kind'] === 'Deployment')
            lastApplied(item, (t) => {
              t['spec']['containers'][0]['ports'] = [appliedPort];
            });
        }
        return items;
      },
    );
    return (JSON.parse(stdout) as { results: Json[] }).results[0] ?? {};
  }

  it('a hostPort kubectl patch added to a port the manifest lists by containerPort alone stays: can never finish', async () => {
    const result = await portCase({ containerPort: 8080 });
    expect(result['verdict']).toBe('never-finishes');
    expect(JSON.stringify(result)).toContain('hostPort 8080');
  });

  it('the same hostPort once applied by the owner and dropped now: removed, finishes', async () => {
    const result = await portCase({ containerPort: 8080, hostPort: 8080 });
    expect(result['verdict']).toBe('finishes');
    expect(result['changes']).toContain('spec.containers[0].ports[0].hostPort');
  });
});
