/**
 * What check reads: manifests with their lines (YAML, JSON, Lists, folders, stdin), and
 * whether a manifest changes a live pod template once the API server's defaults are set
 * aside.
 */
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManifestError, parseManifests } from '../../src/check/manifests.js';
import { MAX_INPUT_BYTES, readManifests } from '../../src/check/manifest-files.js';
import { templateChanges } from '../../src/check/template-change.js';

const deployment = (name: string, image = 'web:1'): string =>
  [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  selector: {matchLabels: {app: web}}',
    '  template:',
    '    metadata: {labels: {app: web}}',
    '    spec:',
    `      containers: [{name: app, image: "${image}"}]`,
    '',
  ].join('\n');

const dir = mkdtempSync(join(tmpdir(), 'check-manifests-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseManifests', () => {
  it('finds workloads in multi-document YAML with the line each starts on, and counts the rest', () => {
    const text = `apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\n${deployment('a')}---\n# a comment\n${deployment('b')}`;
    const set = parseManifests(text, 'out.yaml');
    expect(set.others).toBe(1);
    expect(set.workloads.map((w) => [w.object.metadata.name, w.at.line])).toEqual([
      ['a', 5],
      ['b', 17],
    ]);
  });

  it('reads Lists item by item, each at its own line, and JSON', () => {
    const list = `apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: DaemonSet\n  metadata: {name: agent}\n  spec:\n    selector: {}\n    template: {spec: {containers: [{name: a, image: x}]}}\n- apiVersion: apps/v1\n  kind: StatefulSet\n  metadata: {name: db}\n  spec:\n    selector: {}\n    template: {spec: {containers: [{name: a, image: x}]}}\n`;
    const set = parseManifests(list, 'list.yaml');
    expect(set.workloads.map((w) => [w.kind, w.at.line])).toEqual([
      ['DaemonSet', 4],
      ['StatefulSet', 10],
    ]);
    const json = JSON.stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'r' },
      spec: { template: { spec: { containers: [{ name: 'a', image: 'x' }] } } },
    });
    expect(parseManifests(json, 'r.json').workloads[0]?.kind).toBe('Rollout');
  });

  it('keeps the template helm rendered each document from', () => {
    const text = `---\n# Source: shop/templates/service.yaml\napiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\n# Source: shop/templates/web.yaml\n${deployment('web')}`;
    const [web] = parseManifests(text, 'rendered.yaml').workloads;
    expect(web?.at).toEqual({
      file: 'rendered.yaml',
      line: 8,
      column: 1,
      template: 'shop/templates/web.yaml',
    });
  });

  it('judges only the kinds of their own API group', () => {
    const text = deployment('a').replace('apps/v1', 'example.com/v1');
    expect(parseManifests(text, 'x.yaml').workloads).toHaveLength(0);
  });

  // Counted as objects not judged, exit 0; kubectl refuses them (no matches for kind).
  it('refuses one of its kinds at a version no Kubernetes serves any more, or never did', () => {
    for (const version of ['v1', 'extensions/v1beta1', 'apps/v1beta2'])
      expect(() => parseManifests(deployment('a').replace('apps/v1', version), 'old.yaml'), version).toThrow(
        `old.yaml:1: Deployment is served as apiVersion apps/v1, not ${version}`,
      );
    const rollout = 'apiVersion: argoproj.io/v1beta1\nkind: Rollout\nmetadata: {name: r}\n';
    expect(() => parseManifests(rollout, 'r.yaml')).toThrow(/served as apiVersion argoproj\.io\/v1alpha1/);
  });

  // ReferenceErrors from the YAML library were internal errors (exit 4).
  it('refuses an alias bomb and an alias to an anchor of an earlier document, at their line', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
    ].join('\n');
    expect(() => parseManifests(`${deployment('a')}---\n${bomb}\n`, 'bomb.yaml')).toThrow(
      /bomb\.yaml:\d+: the document repeats aliased values beyond any real manifest/,
    );
    const anchored = `${deployment('a')}x-env: &env [1]\n---\n${deployment('b')}x-env: *env\n`;
    const second = deployment('a').split('\n').length + 1;
    expect(() => parseManifests(anchored, 'env.yaml')).toThrow(
      `env.yaml:${second}: the document uses an alias whose anchor is not set before it`,
    );
  });

  it('refuses what it cannot judge, naming the file and line', () => {
    expect(() => parseManifests('kind: [oops\n', 'bad.yaml')).toThrow(ManifestError);
    expect(() => parseManifests(deployment('Bad_Name'), 'n.yaml')).toThrow(
      /n\.yaml:1: Deployment metadata\.name is not a valid name/,
    );
    const noTemplate = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {}\n';
    expect(() => parseManifests(noTemplate, 't.yaml')).toThrow(/spec\.template/);
    expect(() => parseManifests('- a\n- b\n', 'seq.yaml')).toThrow(/expected a Kubernetes object/);
  });

  // kubectl refuses these ("apiVersion not set"); counted as objects not judged, a
  // Deployment whose apiVersion was lost passed a CI gate with exit 0.
  it('refuses an object without apiVersion or kind, as kubectl does, inside a List too', () => {
    const noVersion = deployment('a').replace('apiVersion: apps/v1\n', '');
    expect(() => parseManifests(noVersion, 'v.yaml')).toThrow(/v\.yaml:1: apiVersion is missing/);
    expect(() => parseManifests('kind: Deployment\n', '-')).toThrow(/-:1: apiVersion is missing/);
    expect(() => parseManifests('apiVersion: v1\nmetadata: {name: x}\n', 'k.yaml')).toThrow(
      /k\.yaml:1: kind is missing/,
    );
    const list = `apiVersion: v1\nkind: List\nitems:\n- kind: ConfigMap\n  metadata: {name: c}\n`;
    expect(() => parseManifests(list, 'l.yaml')).toThrow(/l\.yaml:4: apiVersion is missing/);
    // Empty documents (a comment alone, a stray ---) are still nothing.
    expect(parseManifests(`# only a comment\n---\n${deployment('b')}`, 'e.yaml').workloads).toHaveLength(1);
  });
});

describe('readManifests', () => {
  it('reads a folder (sorted, nested, only manifest files) and stdin', async () => {
    mkdirSync(join(dir, 'chart/templates'), { recursive: true });
    writeFileSync(join(dir, 'chart/templates/b.yaml'), deployment('b'));
    writeFileSync(join(dir, 'chart/a.yml'), deployment('a'));
    writeFileSync(join(dir, 'chart/README.md'), '# not a manifest');
    const set = await readManifests([join(dir, 'chart'), '-'], {
      readStdin: () => Promise.resolve(deployment('c')),
    });
    expect(set.workloads.map((w) => [w.object.metadata.name, w.at.file.replace(dir, '')])).toEqual([
      ['a', '/chart/a.yml'],
      ['b', '/chart/templates/b.yaml'],
      ['c', '-'],
    ]);
    // A file named again, on its own or in its folder, is judged once.
    const again = await readManifests(
      [join(dir, 'chart/a.yml'), join(dir, 'chart'), join(dir, 'chart/a.yml')],
      {
        readStdin: () => Promise.resolve(''),
      },
    );
    expect(again.workloads.map((w) => w.object.metadata.name)).toEqual(['a', 'b']);
  });

  it('says which path is missing, and refuses stdin twice', async () => {
    await expect(
      readManifests([join(dir, 'nope.yaml')], { readStdin: () => Promise.resolve('') }),
    ).rejects.toThrow(/no such file or folder/);
    await expect(
      readManifests(['-', '-'], { readStdin: () => Promise.resolve(deployment('c')) }),
    ).rejects.toThrow(/twice/);
  });

  // `helm template … | check -f -` where helm failed passed as "no Deployment", exit 0.
  it('refuses stdin or a file named on its own that holds no manifest; an empty file in a folder is skipped', async () => {
    for (const text of ['', '\n  \n', '# nothing\n---\n...\n', '# Source: x\r\n---\r\n'])
      await expect(readManifests(['-'], { readStdin: () => Promise.resolve(text) })).rejects.toThrow(
        '"-" (stdin) is empty: no manifest came in',
      );
    writeFileSync(join(dir, 'empty.yaml'), '# rendered nothing\n');
    await expect(
      readManifests([join(dir, 'empty.yaml')], { readStdin: () => Promise.resolve('') }),
    ).rejects.toThrow(/empty\.yaml is empty: no manifest in it/);
    mkdirSync(join(dir, 'rendered'), { recursive: true });
    writeFileSync(join(dir, 'rendered/a.yaml'), deployment('a'));
    writeFileSync(join(dir, 'rendered/b.yaml'), '');
    const set = await readManifests([join(dir, 'rendered')], { readStdin: () => Promise.resolve('') });
    expect(set.workloads.map((w) => w.object.metadata.name)).toEqual(['a']);
  });
});

describe('readManifests reads what kubectl apply -R reads (issue 67.3, 67.7)', () => {
  const none = { readStdin: () => Promise.resolve('') };
  const names = (set: Awaited<ReturnType<typeof readManifests>>): unknown[] =>
    set.workloads.map((w) => w.object.metadata.name);

  it('follows a symlinked manifest in a folder, as kubectl does; a link without a manifest name is skipped', async () => {
    const base = join(dir, 'links');
    mkdirSync(join(base, 'shared'), { recursive: true });
    writeFileSync(join(dir, 'outside.yaml'), deployment('linked'));
    writeFileSync(join(base, 'a.yaml'), deployment('a'));
    symlinkSync(join(dir, 'outside.yaml'), join(base, 'b.yaml'));
    symlinkSync(join(dir, 'outside.yaml'), join(base, 'c.txt'));
    expect(names(await readManifests([base], none))).toEqual(['a', 'linked']);
  });

  it('matches the extensions case-sensitively and walks names in byte order, as filepath.Walk does', async () => {
    const base = join(dir, 'order');
    mkdirSync(base, { recursive: true });
    writeFileSync(join(base, 'b.yaml'), deployment('lower-b'));
    writeFileSync(join(base, 'C.yaml'), deployment('upper-c'));
    writeFileSync(join(base, 'D.YAML'), deployment('shouted'));
    expect(names(await readManifests([base], none))).toEqual(['upper-c', 'lower-b']);
  });

  it('refuses, naming it, what kubectl cannot read: a symlink to a folder, a broken one, a FIFO', async () => {
    const base = join(dir, 'refused');
    mkdirSync(join(base, 'sub'), { recursive: true });
    symlinkSync(join(base, 'sub'), join(base, 'folder.yaml'));
    await expect(readManifests([base], none)).rejects.toThrow(/folder\.yaml is a symlink to a folder/);
    rmSync(join(base, 'folder.yaml'));
    symlinkSync(join(base, 'gone'), join(base, 'dangling.yaml'));
    await expect(readManifests([base], none)).rejects.toThrow(/dangling\.yaml is a symlink to nothing/);
    rmSync(join(base, 'dangling.yaml'));
    symlinkSync(join(base, 'sub'), join(dir, 'to-folder'));
    await expect(readManifests([join(dir, 'to-folder')], none)).rejects.toThrow(
      /to-folder is a symlink to a folder: kubectl apply -f reads it as a file/,
    );
    // A FIFO named directly hung the gate; in a folder kubectl would hang on it too.
    execFileSync('mkfifo', [join(base, 'pipe.yaml')]);
    await expect(readManifests([join(base, 'pipe.yaml')], none)).rejects.toThrow(/pipe\.yaml is a FIFO/);
    await expect(readManifests([base], none)).rejects.toThrow(/pipe\.yaml is a FIFO/);
  });

  it('refuses a device, directly or through a symlink, instead of reading it without end', async () => {
    await expect(readManifests(['/dev/zero'], none)).rejects.toThrow(/\/dev\/zero is a character device/);
    const base = join(dir, 'device');
    mkdirSync(base, { recursive: true });
    symlinkSync('/dev/zero', join(base, 'zero.yaml'));
    await expect(readManifests([base], none)).rejects.toThrow(
      /zero\.yaml is a symlink to a character device/,
    );
  });

  it('bounds all input together: files and stdin share one budget', async () => {
    const base = join(dir, 'large');
    mkdirSync(base, { recursive: true });
    const filler = `# ${'x'.repeat(1024 * 1024)}\n`;
    const half = Math.ceil(MAX_INPUT_BYTES / 2 / filler.length);
    writeFileSync(join(base, 'a.yaml'), deployment('a') + filler.repeat(half));
    writeFileSync(join(base, 'b.yaml'), deployment('b') + filler.repeat(half));
    await expect(readManifests([base], none)).rejects.toThrow(/more than 16 MiB in all/);
    // One of them fits; stdin is asked for no more than what is left.
    let asked = 0;
    const set = await readManifests([join(base, 'a.yaml'), '-'], {
      readStdin: (limit) => {
        asked = limit;
        return Promise.resolve(deployment('c'));
      },
    });
    expect(names(set)).toEqual(['a', 'c']);
    expect(asked).toBeLessThan(MAX_INPUT_BYTES / 2);
    await expect(readManifests(['-'], { readStdin: () => Promise.resolve(undefined) })).rejects.toThrow(
      /"-" \(stdin\): the manifests come to more than 16 MiB/,
    );
  });
});

describe('parseManifests refuses what the API server refuses', () => {
  it('a resource amount that is not a quantity, at its own line (it counted as no request)', () => {
    const text = deployment('q').replace(
      '      containers: [{name: app, image: "web:1"}]\n',
      '      containers:\n      - name: app\n        image: web:1\n        resources:\n          requests:\n            cpu: 1_000\n            memory: lots\n',
    );
    expect(() => parseManifests(text, 'q.yaml')).toThrow(
      'q.yaml:16: Deployment spec.template.spec.containers.0.resources.requests.memory is not a quantity ("lots")',
    );
    // 1_000 is YAML 1.1's 1000, a quantity; so are the usual spellings.
    const good = text.replace('memory: lots', 'memory: 1.5Gi');
    expect(parseManifests(good, 'q.yaml').workloads).toHaveLength(1);
  });
});

describe('templateChanges', () => {
  const manifest = {
    metadata: { labels: { app: 'web' } },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'web:1',
          ports: [{ containerPort: 80 }],
          resources: { limits: { 'nvidia.com/gpu': 1, memory: '1Gi' }, requests: { cpu: '0.5' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 80 } },
        },
      ],
      volumes: [{ name: 'cfg', configMap: { name: 'cfg' } }],
    },
  };
  /** The same template as the API server stores it. */
  const live = {
    metadata: { labels: { app: 'web' }, creationTimestamp: null },
    spec: {
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      securityContext: {},
      containers: [
        {
          name: 'app',
          image: 'web:1',
          imagePullPolicy: 'IfNotPresent',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          resources: {
            limits: { 'nvidia.com/gpu': '1', memory: '1Gi' },
            requests: { cpu: '500m', 'nvidia.com/gpu': '1', memory: '1Gi' },
          },
          readinessProbe: {
            httpGet: { path: '/healthz', port: 80, scheme: 'HTTP' },
            timeoutSeconds: 1,
            periodSeconds: 10,
            successThreshold: 1,
            failureThreshold: 3,
          },
        },
      ],
      volumes: [{ name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } }],
    },
  };

  it('sees no change where the live template only adds the server defaults', () => {
    expect(templateChanges(manifest, live)).toEqual([]);
  });

  it('names the path of a change, of a removed field, and of a default set to something else', () => {
    const image = structuredClone(manifest);
    image.spec.containers[0] = {
      ...manifest.spec.containers[0],
      image: 'web:2',
    } as (typeof manifest.spec.containers)[0];
    expect(templateChanges(image, live)).toEqual(['spec.containers[0].image']);
    const withEnv = structuredClone(live) as typeof live & { spec: { containers: { env?: unknown }[] } };
    withEnv.spec.containers[0] = {
      ...live.spec.containers[0],
      env: [{ name: 'A', value: '1' }],
    } as (typeof withEnv.spec.containers)[0];
    expect(templateChanges(manifest, withEnv)).toEqual(['spec.containers[0].env']);
    const pull = structuredClone(live);
    pull.spec.containers[0] = {
      ...live.spec.containers[0],
      imagePullPolicy: 'Always',
    } as (typeof live.spec.containers)[0];
    expect(templateChanges(manifest, pull)).toEqual(['spec.containers[0].imagePullPolicy']);
    const cpu = structuredClone(manifest);
    cpu.spec.containers[0] = {
      ...manifest.spec.containers[0],
      resources: { limits: { 'nvidia.com/gpu': 1, memory: '1Gi' }, requests: { cpu: '600m' } },
    } as (typeof manifest.spec.containers)[0];
    expect(templateChanges(cpu, live)).toEqual(['spec.containers[0].resources.requests.cpu']);
  });
});
