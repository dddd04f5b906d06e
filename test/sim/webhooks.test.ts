/**
 * The simulator calls ValidatingWebhookConfigurations as kube-apiserver does
 * (sim/webhooks/): what the AdmissionReview carries, which writes reach which webhook,
 * warnings as Warning headers, refusals and failed calls worded as the API server words
 * them, caBundle, timeoutSeconds, failurePolicy, service references, dry runs.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { simRequest } from '../support/sim-request.js';
import { makeTestCertificate } from '../support/test-certificate.js';
import {
  deploymentWebhook,
  makeTestCa,
  startStubWebhook,
  webhookConfiguration,
  WEBHOOK_NAME,
  type ReviewRequest,
  type StubAnswer,
  type StubWebhook,
} from '../support/stub-webhook.js';

const HOOK = WEBHOOK_NAME;
const ca = makeTestCa();
const otherCa = makeTestCertificate({ cn: 'another CA', ca: true });
let sim: Simulator;
let hook: StubWebhook;
let decide: (r: ReviewRequest) => StubAnswer;

const image = (r: ReviewRequest): string => {
  const spec = (r.object?.['spec'] ?? {}) as { template?: { spec?: { containers?: { image?: string }[] } } };
  return spec.template?.spec?.containers?.[0]?.image ?? '';
};
const labels = (r: ReviewRequest): Record<string, string> =>
  ((r.object?.['metadata'] ?? {}) as { labels?: Record<string, string> }).labels ?? {};

/** The stub's default: warns on the image bump to :2, refuses what is labelled deny. */
function byImage(r: ReviewRequest): StubAnswer {
  if (labels(r)['deny'] === 'yes')
    return {
      allowed: false,
      warnings: ['refusing, see the message'],
      status: { code: 403, reason: 'Forbidden', message: 'no rollout today' },
    };
  return image(r).endsWith(':2')
    ? { warnings: [`the rollout of deployment/${r.name ?? ''} can never finish`] }
    : {};
}

function webhookConfig(name: string, overrides: Record<string, unknown> = {}): object {
  return webhookConfiguration(
    name,
    deploymentWebhook(
      { url: hook.url, caBundle: hook.caBundle },
      { failurePolicy: 'Fail', timeoutSeconds: 5, ...overrides },
    ),
  );
}

function deployment(name: string, img: string, extraLabels: Record<string, string> = {}): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'shop', labels: { app: name, ...extraLabels } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: img }] } },
    },
  };
}

const DEPLOYMENTS = '/apis/apps/v1/namespaces/shop/deployments';
const CONFIGS = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const post = (path: string, body: unknown) => simRequest(sim.url, 'POST', path, body);
const setConfig = async (overrides: Record<string, unknown> = {}): Promise<void> => {
  await simRequest(sim.url, 'DELETE', `${CONFIGS}/rollout-doctor`);
  const created = await post(CONFIGS, webhookConfig('rollout-doctor', overrides));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
};

beforeAll(async () => {
  hook = await startStubWebhook((r) => decide(r), { ca, dnsNames: ['hook.hooks.svc'] });
});
afterAll(async () => hook.close());
beforeEach(async () => {
  decide = byImage;
  hook.reviews.length = 0;
  sim = await startSimulator({
    scenario: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { team: 'shop' } } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hooks' } },
    ],
    controllers: false,
  });
});
afterEach(async () => sim.close());

describe('calling a validating webhook', () => {
  it('sends the object as it will be stored, warns on the bump and says nothing on a safe write', async () => {
    await setConfig();
    const created = await post(DEPLOYMENTS, deployment('embedder', 'embedder:1'));
    expect(created.status).toBe(201);
    expect(created.warnings).toEqual([]);
    const first = hook.reviews[0];
    expect(first?.apiVersion).toBe('admission.k8s.io/v1');
    expect(first?.query).toBe('timeout=5s');
    expect(first?.request).toMatchObject({
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      name: 'embedder',
      namespace: 'shop',
      operation: 'CREATE',
      userInfo: { username: 'kubernetes-admin' },
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
    const stored = first?.request.object as { metadata: { uid?: string }; spec: { strategy?: unknown } };
    expect(stored.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
    });

    const bump = { spec: { template: { spec: { containers: [{ name: 'main', image: 'embedder:2' }] } } } };
    const patched = await simRequest(
      sim.url,
      'PATCH',
      `${DEPLOYMENTS}/embedder?fieldManager=kubectl-edit`,
      bump,
      'application/strategic-merge-patch+json',
    );
    expect(patched.status).toBe(200);
    expect(patched.warnings).toEqual(['299 - "the rollout of deployment/embedder can never finish"']);
    const second = hook.reviews[1]?.request;
    expect(second?.operation).toBe('UPDATE');
    expect(image({ ...second, object: second?.oldObject ?? null } as ReviewRequest)).toBe('embedder:1');
    expect(image(second as ReviewRequest)).toBe('embedder:2');
    expect(second?.options).toEqual({
      kind: 'UpdateOptions',
      apiVersion: 'meta.k8s.io/v1',
      fieldManager: 'kubectl-edit',
    });
  });

  it('calls it on server-side apply, on PUT and on a dry run, which stores nothing', async () => {
    await setConfig();
    const apply = (img: string, query = '') =>
      simRequest(
        sim.url,
        'PATCH',
        `${DEPLOYMENTS}/web?fieldManager=helm${query}`,
        deployment('web', img),
        'application/apply-patch+yaml',
      );
    expect((await apply('web:1')).status).toBe(201);
    expect(hook.reviews.at(-1)?.request.operation).toBe('CREATE');
    const dry = await apply('web:2', '&dryRun=All');
    expect(dry.warnings).toEqual(['299 - "the rollout of deployment/web can never finish"']);
    expect(hook.reviews.at(-1)?.request.dryRun).toBe(true);
    expect(hook.reviews.at(-1)?.request.options).toMatchObject({ dryRun: ['All'] });
    expect(image({ object: sim.get('Deployment', 'shop', 'web') } as ReviewRequest)).toBe('web:1');
    const put = await simRequest(sim.url, 'PUT', `${DEPLOYMENTS}/web`, deployment('web', 'web:2'));
    expect([put.status, put.warnings.length]).toEqual([200, 1]);
    expect(hook.reviews).toHaveLength(3);
  });

  it('refuses on allowed: false with the webhook’s code, reason and message, and still sends its warnings', async () => {
    await setConfig();
    const refused = await post(DEPLOYMENTS, deployment('web', 'web:1', { deny: 'yes' }));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: `admission webhook "${HOOK}" denied the request: no rollout today`,
    });
    expect(refused.warnings).toEqual(['299 - "refusing, see the message"']);
    expect(sim.get('Deployment', 'shop', 'web')).toBeUndefined();

    decide = () => ({ allowed: false, status: { code: 200 } });
    const bare = await post(DEPLOYMENTS, deployment('web', 'web:1'));
    expect(bare.status).toBe(400);
    expect(bare.body['message']).toBe(`admission webhook "${HOOK}" denied the request without explanation`);
    expect(bare.body['reason']).toBeUndefined();
  });

  it('follows failurePolicy when the webhook process is gone: Fail refuses with the dial error, Ignore lets the write through', async () => {
    const gone = await startStubWebhook(byImage, { ca });
    await gone.close();
    await setConfig({ clientConfig: { url: gone.url, caBundle: gone.caBundle } });
    const refused = await post(DEPLOYMENTS, deployment('web', 'web:2'));
    expect(refused.status).toBe(500);
    expect(refused.body).toMatchObject({
      reason: 'InternalError',
      message: `Internal error occurred: failed calling webhook "${HOOK}": failed to call webhook: Post "${gone.url}?timeout=5s": dial tcp 127.0.0.1:${gone.port}: connect: connection refused`,
    });
    await setConfig({ clientConfig: { url: gone.url, caBundle: gone.caBundle }, failurePolicy: 'Ignore' });
    const through = await post(DEPLOYMENTS, deployment('web', 'web:2'));
    expect([through.status, through.warnings]).toEqual([201, []]);
  });

  it('verifies the serving certificate against caBundle (none: the system roots)', async () => {
    await setConfig({
      clientConfig: { url: hook.url, caBundle: Buffer.from(otherCa.certificatePem).toString('base64') },
    });
    const wrong = await post(DEPLOYMENTS, deployment('web', 'web:1'));
    expect(wrong.body['message']).toContain(
      'tls: failed to verify certificate: x509: certificate signed by unknown authority',
    );
    await setConfig({ clientConfig: { url: hook.url } });
    expect((await post(DEPLOYMENTS, deployment('web', 'web:1'))).status).toBe(500);
    await setConfig({
      clientConfig: { url: hook.url.replace('127.0.0.1', 'webhook.example.com'), caBundle: hook.caBundle },
    });
    const name = await post(DEPLOYMENTS, deployment('web', 'web:1'));
    expect(name.body['message']).toContain(
      'x509: certificate is valid for localhost, hook.hooks.svc, 127.0.0.1, not webhook.example.com',
    );
    expect(hook.reviews).toHaveLength(0);
  });

  it('gives up after timeoutSeconds', async () => {
    decide = () => ({ delayMs: 3_000 });
    await setConfig({ timeoutSeconds: 1 });
    const started = Date.now();
    const late = await post(DEPLOYMENTS, deployment('web', 'web:1'));
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(late.body['message']).toBe(
      `Internal error occurred: failed calling webhook "${HOOK}": failed to call webhook: Post "${hook.url}?timeout=1s": context deadline exceeded`,
    );
  });

  it('reaches a service reference through the Service’s targetPort, by number or by the selected pods’ port name', async () => {
    const service = (targetPort: number | string) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'hook', namespace: 'hooks' },
      spec: { selector: { app: 'hook' }, ports: [{ port: 443, targetPort }] },
    });
    const ref = {
      clientConfig: {
        service: { namespace: 'hooks', name: 'hook', path: '/validate' },
        caBundle: hook.caBundle,
      },
    };
    await setConfig(ref);
    const missing = await post(DEPLOYMENTS, deployment('web', 'web:1'));
    expect(missing.body['message']).toBe(
      `Internal error occurred: failed calling webhook "${HOOK}": failed to call webhook: Post "https://hook.hooks.svc:443/validate?timeout=5s": service "hook" not found`,
    );
    sim.apply(service(hook.port));
    expect((await post(DEPLOYMENTS, deployment('web', 'web:2'))).warnings).toHaveLength(1);
    sim.apply(service('https'));
    expect((await post(DEPLOYMENTS, deployment('api', 'api:1'))).body['message']).toContain(
      'no endpoints available for service "hook"',
    );
    sim.apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'hook-0', namespace: 'hooks', labels: { app: 'hook' } },
      spec: {
        containers: [{ name: 'hook', image: 'hook:1', ports: [{ name: 'https', containerPort: hook.port }] }],
      },
    });
    expect((await post(DEPLOYMENTS, deployment('api', 'api:1'))).status).toBe(201);
    expect(hook.reviews.map((r) => r.request.name)).toEqual(['web', 'api']);
  });

  it('calls only the webhooks whose rules, selectors and matchConditions take the request', async () => {
    const rule = (over: Record<string, unknown>) => [
      {
        operations: ['CREATE'],
        apiGroups: ['apps'],
        apiVersions: ['v1'],
        resources: ['deployments'],
        ...over,
      },
    ];
    const skipped: Record<string, unknown>[] = [
      { rules: rule({ operations: ['UPDATE'] }) },
      { rules: rule({ apiGroups: [''] }) },
      { rules: rule({ resources: ['deployments/status'] }) },
      { rules: rule({ scope: 'Cluster' }) },
      { namespaceSelector: { matchLabels: { team: 'other' } } },
      { objectSelector: { matchExpressions: [{ key: 'tier', operator: 'Exists' }] } },
      { matchConditions: [{ name: 'not-web', expression: 'object.metadata.name != "web"' }] },
    ];
    for (const [i, over] of skipped.entries()) {
      await setConfig(over);
      expect((await post(DEPLOYMENTS, deployment('web', 'web:2'))).status, JSON.stringify(over)).toBe(201);
      await simRequest(sim.url, 'DELETE', `${DEPLOYMENTS}/web`);
      expect(hook.reviews, `case ${i}`).toHaveLength(0);
    }
    await setConfig({
      rules: rule({ scope: 'Namespaced', resources: ['*'] }),
      namespaceSelector: { matchLabels: { team: 'shop' } },
    });
    expect((await post(DEPLOYMENTS, deployment('web', 'web:2'))).warnings).toHaveLength(1);
    await setConfig({ matchConditions: [{ name: 'broken', expression: 'object.nope.deeper == 1' }] });
    const broken = await post(DEPLOYMENTS, deployment('api', 'api:1'));
    expect([broken.status, String(broken.body['message'])]).toEqual([
      403,
      expect.stringMatching(/^deployments\.apps "api" is forbidden: /),
    ]);
  });

  it('never sends the webhook configurations themselves, even when the webhook is down', async () => {
    await setConfig({
      clientConfig: { url: 'https://127.0.0.1:1/validate', caBundle: hook.caBundle },
      rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
    });
    expect((await post(CONFIGS, webhookConfig('second'))).status).toBe(201);
    expect((await simRequest(sim.url, 'DELETE', `${CONFIGS}/second`)).status).toBe(200);
  });

  it('treats an answer that is not a proper review as a failed call', async () => {
    await setConfig();
    decide = () => ({
      raw: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: 'other', allowed: true },
      },
    });
    expect((await post(DEPLOYMENTS, deployment('web', 'web:1'))).body['message']).toMatch(
      /failed calling webhook "check\.rollout-doctor\.io": received invalid webhook response: expected response\.uid="[0-9a-f-]+", got "other"$/,
    );
    decide = (r) => ({
      raw: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: r.uid, allowed: true, patch: 'W10=', patchType: 'JSONPatch' },
      },
    });
    expect((await post(DEPLOYMENTS, deployment('web', 'web:1'))).body['message']).toContain(
      'validating webhook may not return response.patch',
    );
  });

  it('calls it on a delete with the object going as oldObject, and once per item of a collection delete', async () => {
    for (const name of ['a', 'b', 'c'])
      await post(DEPLOYMENTS, deployment(name, `${name}:1`, { batch: 'x' }));
    await setConfig({
      rules: [
        { operations: ['DELETE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] },
      ],
    });
    decide = (r) =>
      (r.oldObject?.['metadata'] as { name?: string }).name === 'b'
        ? { allowed: false, status: { code: 403, message: 'keep b' } }
        : {};
    const one = await simRequest(sim.url, 'DELETE', `${DEPLOYMENTS}/c`);
    expect(one.status).toBe(200);
    expect(hook.reviews[0]?.request).toMatchObject({
      operation: 'DELETE',
      name: 'c',
      object: null,
      oldObject: { metadata: { name: 'c' } },
      options: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' },
    });
    const all = await simRequest(sim.url, 'DELETE', `${DEPLOYMENTS}?labelSelector=batch%3Dx`);
    expect([all.status, all.body['message']]).toEqual([
      403,
      `admission webhook "${HOOK}" denied the request: keep b`,
    ]);
    expect(hook.reviews.map((r) => r.request.name)).toEqual(['c', 'a', 'b']);
    expect(
      sim.list('Deployment', 'shop').map((d) => (d as { metadata: { name: string } }).metadata.name),
    ).toEqual(['b']);
  });

  it('is called before the quota plugin, the last one: a create the quota refuses still gets its warning', async () => {
    await setConfig();
    const hard = { 'count/deployments.apps': '0' };
    sim.apply({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'no-deployments', namespace: 'shop' },
      spec: { hard },
      status: { hard, used: { 'count/deployments.apps': '0' } },
    });
    for (const write of [
      () => post(DEPLOYMENTS, deployment('web', 'web:2')),
      () =>
        simRequest(
          sim.url,
          'PATCH',
          `${DEPLOYMENTS}/web?fieldManager=helm`,
          deployment('web', 'web:2'),
          'application/apply-patch+yaml',
        ),
    ]) {
      const refused = await write();
      expect(refused.status).toBe(403);
      expect(String(refused.body['message'])).toContain('exceeded quota: no-deployments');
      expect(refused.warnings).toEqual(['299 - "the rollout of deployment/web can never finish"']);
    }
    expect(hook.reviews).toHaveLength(2);
  });

  it('refuses a dry run a webhook with side effects cannot take (a configuration stored before v1 validation), calls it otherwise', async () => {
    sim.apply({
      ...webhookConfig('legacy', { sideEffects: 'Unknown', failurePolicy: 'Ignore' }),
    });
    const dry = await simRequest(sim.url, 'POST', `${DEPLOYMENTS}?dryRun=All`, deployment('web', 'web:2'));
    expect([dry.status, dry.body['message']]).toEqual([
      400,
      `admission webhook "${HOOK}" does not support dry run`,
    ]);
    expect(hook.reviews).toHaveLength(0);
    expect((await post(DEPLOYMENTS, deployment('web', 'web:2'))).warnings).toHaveLength(1);
  });

  it('speaks admission.k8s.io/v1beta1 to a webhook that takes only that', async () => {
    await setConfig({ admissionReviewVersions: ['v1beta1'] });
    decide = () => ({ raw: { response: { allowed: true, warnings: ['old but fine'] } } });
    const created = await post(DEPLOYMENTS, deployment('web', 'web:1'));
    expect([created.status, created.warnings]).toEqual([201, ['299 - "old but fine"']]);
    expect(hook.reviews[0]?.apiVersion).toBe('admission.k8s.io/v1beta1');
  });

  it('names a request as the API server does: a generateName create has no name yet but the object the one stored; a Namespace is its own namespace', async () => {
    await setConfig({
      rules: [
        { operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] },
        { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] },
      ],
    });
    const generated = {
      ...deployment('x', 'web:1'),
      metadata: { generateName: 'web-', namespace: 'shop', labels: { app: 'x' } },
    };
    const created = await post(DEPLOYMENTS, generated);
    expect(created.status).toBe(201);
    const stored = (created.body['metadata'] as { name: string }).name;
    expect(stored).toMatch(/^web-[a-z0-9]{5}$/);
    expect(hook.reviews[0]?.request.name).toBeUndefined();
    expect((hook.reviews[0]?.request.object?.['metadata'] as { name?: string }).name).toBe(stored);
    expect(
      (
        await post('/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'team-a' },
        })
      ).status,
    ).toBe(201);
    expect(hook.reviews[1]?.request).toMatchObject({
      name: 'team-a',
      namespace: 'team-a',
      operation: 'CREATE',
    });
  });

  it('calls it on custom resources too: an Argo Rollout changed by merge patch', async () => {
    const argo = await startSimulator({
      scenario: 'sim/scenarios/gpu-deadlock-rollout.yaml',
      controllers: false,
    });
    try {
      const created = await simRequest(
        argo.url,
        'POST',
        CONFIGS,
        webhookConfig('argo', {
          rules: [
            {
              operations: ['UPDATE'],
              apiGroups: ['argoproj.io'],
              apiVersions: ['v1alpha1'],
              resources: ['rollouts'],
              scope: 'Namespaced',
            },
          ],
        }),
      );
      expect(created.status).toBe(201);
      const bump = {
        spec: { template: { spec: { containers: [{ name: 'tracker', image: 'tracker:2' }] } } },
      };
      const patched = await simRequest(
        argo.url,
        'PATCH',
        '/apis/argoproj.io/v1alpha1/namespaces/vision/rollouts/vision-object-tracker',
        bump,
        'application/merge-patch+json',
      );
      expect(patched.status).toBe(200);
      expect(patched.warnings).toEqual([
        '299 - "the rollout of deployment/vision-object-tracker can never finish"',
      ]);
      expect(hook.reviews[0]?.request).toMatchObject({
        kind: { group: 'argoproj.io', version: 'v1alpha1', kind: 'Rollout' },
        resource: { group: 'argoproj.io', version: 'v1alpha1', resource: 'rollouts' },
        namespace: 'vision',
        operation: 'UPDATE',
      });
    } finally {
      await argo.close();
    }
  });

  it('answers the refusal of the first configuration by name when several refuse, with every warning', async () => {
    const config = (name: string, hookName: string) =>
      webhookConfiguration(
        name,
        deploymentWebhook({ url: hook.url, caBundle: hook.caBundle }, { name: hookName }),
      );
    expect((await post(CONFIGS, config('b-second', 'second.rollout-doctor.io'))).status).toBe(201);
    expect((await post(CONFIGS, config('a-first', 'first.rollout-doctor.io'))).status).toBe(201);
    decide = () => ({ allowed: false, warnings: ['seen'], status: { code: 403, message: 'no' } });
    const refused = await post(DEPLOYMENTS, deployment('web', 'web:1'));
    expect([refused.status, refused.body['message'], refused.warnings]).toEqual([
      403,
      'admission webhook "first.rollout-doctor.io" denied the request: no',
      ['299 - "seen"'],
    ]);
    expect(hook.reviews).toHaveLength(2);
  });

  it('admits the write again when the object changed while the webhook was answering', async () => {
    await setConfig();
    expect((await post(DEPLOYMENTS, deployment('web', 'web:1'))).status).toBe(201);
    let calls = 0;
    decide = () => {
      calls += 1;
      if (calls === 1)
        sim.apply({
          ...deployment('web', 'web:1'),
          metadata: { name: 'web', namespace: 'shop', labels: { app: 'web', touched: 'yes' } },
        });
      return {};
    };
    const patched = await simRequest(
      sim.url,
      'PATCH',
      `${DEPLOYMENTS}/web`,
      { metadata: { annotations: { note: 'x' } } },
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    expect(calls).toBe(2);
    expect(labels({ object: hook.reviews.at(-1)?.request.object } as ReviewRequest)['touched']).toBe('yes');
  });
});
