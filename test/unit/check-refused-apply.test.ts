/**
 * check says when kube-apiserver's own validation refuses the apply (src/check/refused-apply.ts,
 * src/diagnosis/workloads/api-validation.ts): a changed selector (apps/v1 keeps it), a
 * StatefulSet field an update may not change, a selector that does not select the
 * template. Each rule has the arm that refuses and the arm that passes; the apply's
 * three-way rule decides whether a left-out field is a change at all.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { refusedApply } from '../../src/check/refused-apply.js';
import { checkOne } from '../../src/check/check.js';
import { dumpSource } from '../../src/check/dump-source.js';
import type { WorkloadObject } from '../../src/diagnosis/snapshot/types.js';
import type { KubeObject } from '../../src/diagnosis/k8s.js';
import { makeDeployment } from '../support/k8s-builders.js';
import { makeDaemonSet } from '../support/daemonset-builders.js';
import { makeStatefulSet } from '../support/statefulset-builders.js';
import { fakeIo } from '../support/cli-io.js';

const asObject = (o: unknown): WorkloadObject => o as WorkloadObject;
const copy = <T>(o: T): T => structuredClone(o);

describe('the selector', () => {
  it('an update that changes it is refused (field is immutable); the same selector passes', () => {
    const live = makeDeployment('web');
    const manifest = copy(live);
    manifest.spec.selector = { matchLabels: { app: 'web', tier: 'front' } };
    manifest.spec.template.metadata = { labels: { app: 'web', tier: 'front' } };
    expect(refusedApply('Deployment', asObject(manifest), asObject(live))).toMatchObject({
      rule: 'immutable',
      path: 'spec.selector',
      message: expect.stringContaining('field is immutable'),
    });
    expect(refusedApply('Deployment', asObject(copy(live)), asObject(live))).toBeUndefined();
  });

  it('several refusals are said together, as the API server aggregates them, the spec rule first', () => {
    const live = makeDeployment('web');
    const manifest = copy(live);
    // A changed selector that does not select the template either: both, in upstream's order.
    manifest.spec.selector = { matchLabels: { app: 'web2' } };
    const both = refusedApply('Deployment', asObject(manifest), asObject(live));
    expect(both?.rule).toBe('selectorMismatch');
    expect(both?.message).toMatch(
      /^\[spec\.template\.metadata\.labels: Invalid value: .*does not match template `labels`, spec\.selector: Invalid value: \{"matchLabels":\{"app":"web2"\}\}: field is immutable\]$/,
    );
    // A StatefulSet whose selector misses its template and whose serviceName changes.
    const sts = makeStatefulSet('db');
    const stsChanged = copy(sts);
    stsChanged.spec.template.metadata = { labels: { app: 'other' } };
    stsChanged.spec.serviceName = 'db-headless';
    const stsBoth = refusedApply('StatefulSet', asObject(stsChanged), asObject(sts));
    expect(stsBoth?.rule).toBe('selectorMismatch');
    expect(stsBoth?.message).toContain(
      'does not match template `labels`, spec: Forbidden: updates to statefulset spec',
    );
    // One refusal alone keeps its own message, unbracketed.
    expect(refusedApply('StatefulSet', asObject(stsChanged), undefined)?.message).toMatch(/^spec\.template/);
  });

  it('empty and absent lists are the same selector (Semantic.DeepEqual)', () => {
    const live = makeDeployment('web');
    const manifest = copy(live);
    manifest.spec.selector = { ...live.spec.selector, matchExpressions: [] };
    expect(refusedApply('Deployment', asObject(manifest), asObject(live))).toBeUndefined();
  });

  it('a DaemonSet and a StatefulSet keep theirs too', () => {
    const ds = makeDaemonSet('agent');
    const dsChanged = copy(ds);
    dsChanged.spec.selector = { matchLabels: { app: 'agent2' } };
    dsChanged.spec.template.metadata = { labels: { app: 'agent2' } };
    expect(refusedApply('DaemonSet', asObject(dsChanged), asObject(ds))?.rule).toBe('immutable');
    const sts = makeStatefulSet('db');
    const stsChanged = copy(sts);
    stsChanged.spec.selector = { matchLabels: { app: 'db2' } };
    stsChanged.spec.template.metadata = { labels: { app: 'db2' } };
    // A StatefulSet's selector is among the fields ValidateStatefulSetUpdate keeps: its message.
    expect(refusedApply('StatefulSet', asObject(stsChanged), asObject(sts))).toMatchObject({
      rule: 'forbidden',
      fields: ['spec.selector'],
    });
  });

  it("a DaemonSet needs no selector, but then selects nothing: the mismatch, not 'Required'", () => {
    const ds = makeDaemonSet('agent');
    delete (ds.spec as { selector?: unknown }).selector;
    expect(refusedApply('DaemonSet', asObject(ds), undefined)?.rule).toBe('selectorMismatch');
    const deployment = makeDeployment('web');
    delete (deployment.spec as { selector?: unknown }).selector;
    expect(refusedApply('Deployment', asObject(deployment), undefined)?.message).toBe(
      'spec.selector: Required value',
    );
  });

  it("the template's labels the manifest leaves out stay as the selector's do: no mismatch", () => {
    const live = makeDeployment('web');
    live.spec.selector = { matchLabels: { app: 'web', team: 'ml' } };
    live.spec.template.metadata = { labels: { app: 'web', team: 'ml' } };
    live.metadata.annotations = {
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } } },
        },
      }),
    };
    const manifest = makeDeployment('web');
    manifest.spec.template.spec.containers = [{ name: 'web', image: 'reg/web:2' }];
    expect(refusedApply('Deployment', asObject(manifest), asObject(live))).toBeUndefined();
  });

  it('a selector that does not select the template is refused on a create; one that does passes', () => {
    const manifest = makeDeployment('web');
    manifest.spec.template.metadata = { labels: { app: 'other' } };
    expect(refusedApply('Deployment', asObject(manifest), undefined)).toMatchObject({
      rule: 'selectorMismatch',
      path: 'spec.template.metadata.labels',
    });
    expect(refusedApply('Deployment', asObject(makeDeployment('web')), undefined)).toBeUndefined();
  });

  it('an empty selector is refused; an Argo Rollout (a custom resource) is not judged', () => {
    const manifest = makeDeployment('web');
    manifest.spec.selector = {};
    expect(refusedApply('Deployment', asObject(manifest), undefined)?.message).toBe(
      'spec.selector: Invalid value: {}: empty selector is invalid for deployment',
    );
    expect(refusedApply('Rollout', asObject({ ...manifest, kind: 'Rollout' }), undefined)).toBeUndefined();
  });

  it('a selector label the manifest leaves out stays where its owner never set it, and goes where it set and dropped it', () => {
    const live = makeDeployment('web');
    live.spec.selector = { matchLabels: { app: 'web', team: 'ml' } };
    live.spec.template.metadata = { labels: { app: 'web', team: 'ml' } };
    const manifest = copy(live);
    manifest.spec.selector = { matchLabels: { app: 'web' } };
    const lastApplied = (spec: object) => {
      const l = copy(live);
      l.metadata.annotations = {
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ spec }),
      };
      return asObject(l);
    };
    const neverSet = lastApplied({ selector: { matchLabels: { app: 'web' } } });
    expect(refusedApply('Deployment', asObject(manifest), neverSet)).toBeUndefined();
    const dropped = lastApplied({ selector: { matchLabels: { app: 'web', team: 'ml' } } });
    expect(refusedApply('Deployment', asObject(manifest), dropped)?.rule).toBe('immutable');
  });
});

describe("a StatefulSet's fixed fields", () => {
  const sized = (size: string) => {
    const sts = makeStatefulSet('db');
    sts.spec.volumeClaimTemplates = [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } } },
      },
    ];
    return sts;
  };

  it('a claim template asking for more storage is forbidden; the same size written another way is not', () => {
    const refusal = refusedApply('StatefulSet', asObject(sized('20Gi')), asObject(sized('10Gi')));
    expect(refusal).toMatchObject({ rule: 'forbidden', fields: ['spec.volumeClaimTemplates'] });
    expect(refusal?.message).toContain("updates to statefulset spec for fields other than 'replicas'");
    expect(refusedApply('StatefulSet', asObject(sized('10240Mi')), asObject(sized('10Gi')))).toBeUndefined();
  });

  it('the stored defaults of a claim template (volumeMode, status) are no change', () => {
    const stored = sized('10Gi');
    const template = stored.spec.volumeClaimTemplates?.[0];
    if (!template?.spec) throw new Error('no template');
    template.spec.volumeMode = 'Filesystem';
    Object.assign(template, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      status: { phase: 'Pending' },
    });
    Object.assign(template.metadata, { creationTimestamp: null });
    expect(refusedApply('StatefulSet', asObject(sized('10Gi')), asObject(stored))).toBeUndefined();
  });

  it('a claim template whose storage class is dropped, labels change or limits change is forbidden', () => {
    const stored = sized('10Gi');
    const template = stored.spec.volumeClaimTemplates?.[0];
    if (!template?.spec) throw new Error('no template');
    template.spec.storageClassName = 'fast';
    expect(refusedApply('StatefulSet', asObject(sized('10Gi')), asObject(stored))?.rule).toBe('forbidden');
    const labelled = sized('10Gi');
    const written = labelled.spec.volumeClaimTemplates?.[0];
    if (!written?.spec) throw new Error('no template');
    written.metadata = { name: 'data', labels: { chart: 'db-1.2.0' } };
    expect(refusedApply('StatefulSet', asObject(labelled), asObject(sized('10Gi')))?.rule).toBe('forbidden');
    written.metadata = { name: 'data' };
    written.spec.resources = { requests: { storage: '10Gi' }, limits: { storage: '20Gi' } };
    expect(refusedApply('StatefulSet', asObject(labelled), asObject(sized('10Gi')))?.rule).toBe('forbidden');
  });

  it('an empty serviceName is no serviceName, and a field the API does not know is not compared', () => {
    const live = makeStatefulSet('db');
    delete live.spec.serviceName;
    const manifest = copy(live);
    manifest.spec.serviceName = '';
    (manifest.spec as Record<string, unknown>).strategy = { type: 'RollingUpdate' };
    expect(refusedApply('StatefulSet', asObject(manifest), asObject(live))).toBeUndefined();
  });

  it('serviceName and podManagementPolicy are forbidden; replicas, template and updateStrategy may change', () => {
    const live = makeStatefulSet('db');
    const renamed = copy(live);
    renamed.spec.serviceName = 'db-headless';
    renamed.spec.podManagementPolicy = 'Parallel';
    expect(refusedApply('StatefulSet', asObject(renamed), asObject(live))).toMatchObject({
      fields: ['spec.podManagementPolicy', 'spec.serviceName'],
    });
    const allowed = copy(live);
    allowed.spec.replicas = 5;
    allowed.spec.updateStrategy = { type: 'OnDelete' };
    allowed.spec.template.spec.containers = [{ name: 'db', image: 'registry.example/db:4' }];
    allowed.spec.minReadySeconds = 10;
    expect(refusedApply('StatefulSet', asObject(allowed), asObject(live))).toBeUndefined();
  });

  it('podManagementPolicy left unset reads as OrderedReady', () => {
    const live = makeStatefulSet('db', { policy: 'OrderedReady' });
    const manifest = copy(live);
    delete manifest.spec.podManagementPolicy;
    const lastApplied = copy(live);
    lastApplied.metadata.annotations = {
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ spec: lastApplied.spec }),
    };
    expect(refusedApply('StatefulSet', asObject(manifest), asObject(lastApplied))).toBeUndefined();
    const parallel = makeStatefulSet('db', { policy: 'Parallel' });
    parallel.metadata.annotations = lastApplied.metadata.annotations;
    expect(refusedApply('StatefulSet', asObject(manifest), asObject(parallel))?.rule).toBe('forbidden');
  });
});

describe('check on a refused apply', () => {
  const DUMP = join(import.meta.dirname, '../fixtures/dumps/check-created-objects.json');
  const dir = mkdtempSync(join(tmpdir(), 'rd-check-refused-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (app: string, image: string): string => {
    const file = join(dir, `${app}-${image.replace(/\W/g, '-')}.yaml`);
    writeFileSync(
      file,
      `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ml}
spec:
  replicas: 2
  selector: {matchLabels: {app: ${app}}}
  template:
    metadata: {labels: {app: ${app}}}
    spec:
      containers:
        - name: app
          image: ${image}
`,
    );
    return file;
  };

  it('a changed selector: APPLY REFUSED, exit 1, even with the template unchanged; the same selector: will finish', async () => {
    for (const image of ['reg/app:1', 'reg/app:2']) {
      const io = fakeIo();
      const status = await runCli(['check', '-f', write('web2', image), '--from-file', DUMP], io.io);
      expect(status).toBe(1);
      expect(io.stdout()).toContain('APPLY REFUSED');
      expect(io.stdout()).toContain('AdmissionDenied: The API server refuses this apply of deployment/web');
      // Counted as refused, not as a rollout that can never finish.
      expect(io.stdout()).toContain('1 workload(s): 0 can never finish, 1 refused by the API server,');
    }
    const io = fakeIo();
    const status = await runCli(
      ['check', '-f', write('web', 'reg/app:2'), '--from-file', DUMP, '-o', 'json'],
      io.io,
    );
    expect(status).toBe(0);
    expect(JSON.parse(io.stdout()).results[0].verdict).toBe('finishes');
  });

  it('an admission review (the old object, or a create) has passed validation already: judged as a rollout', async () => {
    const live = makeDeployment('web', { namespace: 'ml' });
    const changed = copy(live);
    changed.spec.selector = { matchLabels: { app: 'web2' } };
    changed.spec.template.metadata = { labels: { app: 'web2' } };
    const source = dumpSource([]);
    for (const item of [
      { kind: 'Deployment' as const, object: asObject(changed), old: asObject(live) },
      { kind: 'Deployment' as const, object: asObject(changed), isNew: true },
    ]) {
      const result = await checkOne(item, source, 'ml');
      expect(result.findings.map((f) => f.says?.key)).not.toContain('applyRefused');
    }
    const fromFile = await checkOne(
      { kind: 'Deployment', object: asObject(changed) },
      dumpSource([live as unknown as KubeObject]),
      'ml',
    );
    expect(fromFile.findings[0]?.says?.key).toBe('applyRefused');
  });

  it('in Korean', async () => {
    const io = fakeIo();
    const status = await runCli(
      ['check', '-f', write('web2', 'reg/app:2'), '--from-file', DUMP, '--lang', 'ko'],
      io.io,
    );
    expect(status).toBe(1);
    expect(io.stdout()).toContain('API 서버가 적용을 거부합니다');
    expect(io.stdout()).toContain('selector는 객체가 있는 동안 바꿀 수 없습니다');
    expect(io.stdout()).toContain('워크로드 1개: 끝나지 않음 0개, API 서버가 거부함 1개,');
  });
});

describe('the rolling update bounds (ValidateRollingUpdateDeployment, …DaemonSet, …StatefulSet)', () => {
  const deployment = (rollingUpdate: Record<string, unknown>): WorkloadObject => {
    const d = makeDeployment('web');
    d.spec.strategy = { type: 'RollingUpdate', rollingUpdate } as never;
    return asObject(d);
  };

  it('a Deployment with both bounds 0 (0, "0%") is refused; 0 beside 1 passes', () => {
    for (const [surge, unavailable] of [
      [0, 0],
      ['0%', 0],
      [0, '0%'],
    ] as const) {
      const refusal = refusedApply(
        'Deployment',
        deployment({ maxSurge: surge, maxUnavailable: unavailable }),
        undefined,
      );
      expect(refusal).toMatchObject({
        rule: 'invalidStrategy',
        path: 'spec.strategy.rollingUpdate.maxUnavailable',
      });
      expect(refusal?.message).toContain('may not be 0 when `maxSurge` is 0');
    }
    expect(
      refusedApply('Deployment', deployment({ maxSurge: 0, maxUnavailable: 1 }), undefined),
    ).toBeUndefined();
    expect(
      refusedApply('Deployment', deployment({ maxSurge: '0%', maxUnavailable: '1%' }), undefined),
    ).toBeUndefined();
  });

  it('maxUnavailable above 100%, a negative int and a string that is no percentage are refused; 100% passes', () => {
    expect(refusedApply('Deployment', deployment({ maxUnavailable: '120%' }), undefined)?.message).toContain(
      'must not be greater than 100%',
    );
    expect(refusedApply('Deployment', deployment({ maxSurge: -1 }), undefined)?.message).toContain(
      'maxSurge: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(refusedApply('Deployment', deployment({ maxSurge: '1' }), undefined)?.message).toContain(
      "a valid percent string must be a numeric string followed by an ending '%'",
    );
    expect(
      refusedApply('Deployment', deployment({ maxUnavailable: '100%', maxSurge: '200%' }), undefined),
    ).toBeUndefined();
  });

  it('a DaemonSet with maxSurge beside its default maxUnavailable 1 is refused; maxSurge 1 with maxUnavailable 0 passes', () => {
    const ds = (rollingUpdate: Record<string, unknown>): WorkloadObject => {
      const d = makeDaemonSet('agent');
      d.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate } as never;
      return asObject(d);
    };
    expect(refusedApply('DaemonSet', ds({ maxSurge: 1 }), undefined)?.message).toContain(
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero',
    );
    expect(refusedApply('DaemonSet', ds({ maxSurge: 0, maxUnavailable: 0 }), undefined)?.message).toContain(
      'maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    );
    expect(refusedApply('DaemonSet', ds({ maxSurge: 1, maxUnavailable: 0 }), undefined)).toBeUndefined();
  });

  it('a StatefulSet with maxUnavailable 0 is refused; 1 passes', () => {
    const sts = (maxUnavailable: number): WorkloadObject => {
      const s = makeStatefulSet('db');
      s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } } as never;
      return asObject(s);
    };
    expect(refusedApply('StatefulSet', sts(0), undefined)?.message).toContain(
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0',
    );
    expect(refusedApply('StatefulSet', sts(1), undefined)).toBeUndefined();
  });
});

describe("a container's resources (ValidateResourceRequirements)", () => {
  type Resources = { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  const withResources = (
    kind: 'Deployment' | 'DaemonSet' | 'StatefulSet',
    resources: Resources,
    init = false,
  ) => {
    const o =
      kind === 'Deployment'
        ? makeDeployment('web')
        : kind === 'DaemonSet'
          ? makeDaemonSet('agent')
          : makeStatefulSet('db');
    const spec = o.spec.template.spec;
    const [first] = spec.containers;
    if (!first) throw new Error('builder changed: no container');
    if (init) spec.initContainers = [{ name: 'init', image: 'reg/init:1', resources }];
    else first.resources = resources;
    return asObject(o);
  };
  const refused = (kind: 'Deployment' | 'DaemonSet' | 'StatefulSet', r: Resources, init = false) =>
    refusedApply(kind, withResources(kind, r, init), undefined);
  const GPU = 'nvidia.com/gpu';

  it('an extended resource: a request unequal to its limit, or without one, or not whole, is refused', () => {
    expect(refused('Deployment', { requests: { [GPU]: '1' }, limits: { [GPU]: '2' } })).toMatchObject({
      rule: 'invalidResources',
      path: 'spec.template.spec.containers[0].resources.requests',
      message:
        'spec.template.spec.containers[0].resources.requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2',
    });
    expect(refused('Deployment', { requests: { [GPU]: '1' } })?.message).toBe(
      'spec.template.spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    );
    expect(refused('Deployment', { limits: { [GPU]: '500m' } })?.message).toBe(
      'spec.template.spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "500m": must be an integer',
    );
    // Hugepages cannot be overcommitted either.
    expect(refused('Deployment', { requests: { 'hugepages-2Mi': '2Mi', memory: '1Gi' } })?.message).toContain(
      'Limit must be set for non overcommitable resources',
    );
    // The other arm: equal, a limit alone (the request is set from it), a whole number written "1000m".
    expect(refused('Deployment', { requests: { [GPU]: 2 }, limits: { [GPU]: '2' } })).toBeUndefined();
    expect(refused('Deployment', { limits: { [GPU]: '1' } })).toBeUndefined();
    expect(refused('Deployment', { limits: { [GPU]: '1000m' } })).toBeUndefined();
  });

  it('cpu and memory: a request above its limit or a negative quantity is refused; below, equal or no limit passes', () => {
    expect(refused('Deployment', { requests: { cpu: '2' }, limits: { cpu: '1' } })?.message).toBe(
      'spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    );
    expect(refused('Deployment', { requests: { memory: '-1' } })?.message).toBe(
      'spec.template.spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0',
    );
    expect(
      refused('Deployment', { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1' } }),
    ).toBeUndefined();
    expect(refused('Deployment', { requests: { cpu: '1' }, limits: { cpu: '1000m' } })).toBeUndefined();
    expect(refused('Deployment', { requests: { cpu: '64' } })).toBeUndefined();
  });

  it('an init container, a DaemonSet and a StatefulSet are held to the same rules', () => {
    expect(refused('Deployment', { requests: { [GPU]: '1' } }, true)?.path).toBe(
      'spec.template.spec.initContainers[0].resources.limits',
    );
    for (const kind of ['DaemonSet', 'StatefulSet'] as const) {
      expect(refused(kind, { requests: { cpu: '2' }, limits: { cpu: '1' } })?.rule).toBe('invalidResources');
      expect(refused(kind, { requests: { cpu: '1' }, limits: { cpu: '2' } })).toBeUndefined();
    }
  });

  it('check says APPLY REFUSED, exit 1, in English and Korean', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-check-resources-'));
    const file = join(dir, 'gpu.yaml');
    writeFileSync(
      file,
      `apiVersion: apps/v1
kind: Deployment
metadata: {name: trainer, namespace: ml}
spec:
  replicas: 1
  selector: {matchLabels: {app: trainer}}
  template:
    metadata: {labels: {app: trainer}}
    spec:
      containers:
        - name: app
          image: reg/trainer:2
          resources: {requests: {nvidia.com/gpu: 1}, limits: {nvidia.com/gpu: 2}}
`,
    );
    const dump = join(import.meta.dirname, '../fixtures/dumps/check-created-objects.json');
    const en = fakeIo();
    expect(await runCli(['check', '-f', file, '--from-file', dump], en.io)).toBe(1);
    expect(en.stdout()).toContain('APPLY REFUSED');
    expect(en.stdout()).toContain('must be equal to nvidia.com/gpu limit of 2');
    const ko = fakeIo();
    expect(await runCli(['check', '-f', file, '--from-file', dump, '--lang', 'ko'], ko.io)).toBe(1);
    expect(ko.stdout()).toContain('컨테이너의 resources를 검증합니다');
    rmSync(dir, { recursive: true, force: true });
  });
});
