/**
 * The chart's admission webhook (admission.enabled) through the real helm: off by
 * default; on, its own Deployment of 2 with a read-only ClusterRole that covers every
 * request the webhook makes, a ValidatingWebhookConfiguration that never blocks an apply
 * and leaves kube-system out, and a serving certificate the chart makes (its CA in the
 * caBundle, its name the Service's) or cert-manager makes. The webhook serves with the
 * chart's own certificate, trusted through the caBundle alone.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveAdmission } from '../../src/admission/serve.js';
import { createLogger } from '../../src/logger.js';
import { ciValues, find, helmTemplate, type K8sObject } from '../support/helm.js';
import { startSimClient } from '../support/sim-client.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- rendered objects

const dir = mkdtempSync(join(tmpdir(), 'admission-chart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NAME = 'rollout-doctor-admission';

function rendered(name: string): K8sObject[] {
  return helmTemplate({ values: [ciValues(name)] });
}

function get(objects: readonly K8sObject[], kind: string, name = NAME): Json {
  const found = find(objects, kind, name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found as unknown as Json;
}

describe('admission webhook in the chart', () => {
  it('is not installed unless admission.enabled', () => {
    const objects = helmTemplate({});
    expect(objects.some((o) => o.kind === 'ValidatingWebhookConfiguration')).toBe(false);
    expect(find(objects, 'Deployment', NAME)).toBeUndefined();
  });

  it('announces warned applies only when asked: its own Redis user and key, nothing of the app or workers', () => {
    const objects = helmTemplate({
      values: [ciValues('admission-webhook')],
      set: ['admission.announce.enabled=true', 'admission.clientAuth.caSecretName=apiserver-client-ca'],
    });
    const pod = get(objects, 'Deployment')['spec']['template']['spec'];
    // issue 67.1: only the API server's reviews are announced; a dry run posts nothing.
    expect(pod['containers'][0]['args'] ?? pod['containers'][0]['command']).toContain(
      '--client-ca=/etc/rollout-doctor/client-ca/ca.crt',
    );
    const hooks = (objects.find((o) => o.kind === 'ValidatingWebhookConfiguration') as unknown as Json)[
      'webhooks'
    ];
    expect(hooks[0]['sideEffects']).toBe('NoneOnDryRun');
    expect(() =>
      helmTemplate({ values: [ciValues('admission-webhook')], set: ['admission.announce.enabled=true'] }),
    ).toThrow(/admission.announce.enabled needs admission.clientAuth.caSecretName/);
    const env = pod['containers'][0]['env'] as Json[];
    const named = (name: string): Json | undefined => env.find((e) => e['name'] === name);
    expect(named('REDIS_URL')?.['value']).toMatch(/^redis:\/\/admission:\$\(REDIS_PASSWORD\)@/);
    expect(named('REDIS_PASSWORD')?.['valueFrom']['secretKeyRef']['key']).toBe('admission-password');
    expect(named('ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY')?.['valueFrom']['secretKeyRef']['name']).toBe(
      'rollout-doctor-admission-keys',
    );
    expect(JSON.stringify(pod)).not.toMatch(/SLACK|TEAMS|worker-keys|NOTIFY_SIGNING|PLAN_SEAL|app-password/);
    const app = find(objects, 'Deployment', 'rollout-doctor-app') as unknown as Json;
    expect(JSON.stringify(app)).toContain('ROLLOUT_DOCTOR_ADMISSION_PUBLIC_KEYS');
    expect(JSON.stringify(app)).not.toContain('ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY');
    const acl = (find(objects, 'ConfigMap', 'rollout-doctor-redis-acl') as unknown as Json)['data'][
      'users.acl'
    ];
    // issue 67.2: one append-only stream, nothing of BullMQ's, no script, no SCAN.
    expect(acl).toMatch(
      /user admission on #@ADMISSION_PASSWORD_SHA256@ resetkeys %W~rd:admission:announce resetchannels -@all \+xadd \+ping\n/,
    );
    const redisPolicy = find(objects, 'NetworkPolicy', 'rollout-doctor-redis') as unknown as Json | undefined;
    if (redisPolicy) expect(JSON.stringify(redisPolicy)).toContain(NAME);
    // Off (the default): no Redis for the webhook, no admission user.
    const off = rendered('admission-webhook');
    expect(JSON.stringify(get(off, 'Deployment'))).not.toMatch(/REDIS|ADMISSION_SIGNING/);
    expect(JSON.stringify(off)).not.toContain('user admission');
  });

  // issue 67.2: the webhook's key speaks for the release's cluster, beside the app's other bindings.
  it('binds the webhook key to the chart’s cluster at the app (admission.announce.keyId)', () => {
    const appEnv = (set: string[]): Json[] => {
      const objects = helmTemplate({
        values: [ciValues('admission-webhook')],
        set: ['admission.announce.enabled=true', 'admission.clientAuth.caSecretName=ca', ...set],
      });
      return get(objects, 'Deployment', 'rollout-doctor-app')['spec']['template']['spec']['containers'][0][
        'env'
      ] as Json[];
    };
    const bindings = (env: Json[]) =>
      env.filter((e) => e['name'] === 'ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS').map((e) => e['value']);
    expect(bindings(appEnv(['admission.announce.keyId=adm-1', 'cluster=prod']))).toEqual(['adm-1=prod']);
    expect(
      bindings(
        appEnv([
          'admission.announce.keyId=adm-1',
          'cluster=prod',
          'app.env.ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS=n-prod=prod',
        ]),
      ),
    ).toEqual(['n-prod=prod,adm-1=prod']);
    // Unset: no entry; the app binds the unnamed admission key to its own cluster, the chart's.
    const unset = appEnv(['cluster=prod']);
    expect(bindings(unset)).toEqual([]);
    expect(unset.find((e) => e['name'] === 'ROLLOUT_DOCTOR_CLUSTER')?.['value']).toBe('prod');
    expect(() =>
      helmTemplate({
        values: [ciValues('admission-webhook')],
        set: [
          'admission.announce.enabled=true',
          'admission.clientAuth.caSecretName=ca',
          'admission.announce.keyId=a=b',
        ],
      }),
    ).toThrow(/keyId/);
  });

  // issue 67.1, 67.7: only the webhook port and the probe port, and probes off the webhook's port.
  it('ships a NetworkPolicy for its pods and serves probes and metrics on a port of their own', () => {
    const objects = rendered('admission-webhook');
    const policy = find(objects, 'NetworkPolicy', NAME) as unknown as Json;
    expect(policy['spec']['podSelector']['matchLabels']['app.kubernetes.io/name']).toBe(NAME);
    expect(policy['spec']['ingress'].map((r: Json) => r['ports'][0]['port'])).toEqual(['https', 'probes']);
    const container = get(objects, 'Deployment')['spec']['template']['spec']['containers'][0];
    expect(container['readinessProbe']['httpGet']).toEqual({ path: '/readyz', port: 'probes' });
    expect(container['livenessProbe']['httpGet']).toEqual({ path: '/healthz', port: 'probes' });
    expect(JSON.stringify(container)).not.toContain('--client-ca');
  });

  it('installs its own Deployment of 2, read-only, and a webhook that never blocks an apply', () => {
    const objects = rendered('admission-webhook');
    const deployment = get(objects, 'Deployment');
    expect(deployment['spec']['replicas']).toBe(2);
    const pod = deployment['spec']['template']['spec'];
    expect(pod['serviceAccountName']).toBe(NAME);
    expect(pod['containers'][0]['command'].slice(0, 3)).toEqual([
      'node',
      'dist/src/cli/main.js',
      'serve-admission',
    ]);
    // No Redis, no chat: nothing of the app's or worker's Secrets.
    expect(JSON.stringify(pod)).not.toMatch(/REDIS|SLACK|TEAMS|worker-keys/);
    const role = get(objects, 'ClusterRole');
    for (const rule of role['rules'] as Json[]) {
      expect(rule['verbs'].every((v: string) => v === 'get' || v === 'list')).toBe(true);
      expect(rule['resources']).not.toContain('secrets');
      expect(rule['resources']).not.toContain('pods/log');
    }
    const binding = get(objects, 'ClusterRoleBinding');
    expect(binding['subjects']).toEqual([
      { kind: 'ServiceAccount', name: NAME, namespace: 'rollout-doctor' },
    ]);
    const [hook] = get(objects, 'ValidatingWebhookConfiguration')['webhooks'] as Json[];
    expect(hook?.['failurePolicy']).toBe('Ignore');
    expect(hook?.['sideEffects']).toBe('None');
    expect(hook?.['timeoutSeconds']).toBeLessThanOrEqual(10);
    expect(hook?.['namespaceSelector']).toEqual({
      matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }],
    });
    expect(hook?.['rules'].flatMap((r: Json) => r['resources'])).toEqual([
      'deployments',
      'daemonsets',
      'statefulsets',
      'rollouts',
    ]);
    expect(hook?.['clientConfig']['service']).toEqual({
      name: NAME,
      namespace: 'rollout-doctor',
      path: '/validate',
      port: 443,
    });
  });

  it('makes a serving certificate for the Service, signed by the CA in the caBundle', () => {
    const objects = rendered('admission-webhook');
    const secret = get(objects, 'Secret', `${NAME}-tls`);
    expect(secret['type']).toBe('kubernetes.io/tls');
    const pem = (key: string): string => Buffer.from(secret['data'][key] as string, 'base64').toString();
    const [hook] = get(objects, 'ValidatingWebhookConfiguration')['webhooks'] as Json[];
    const ca = new X509Certificate(Buffer.from(hook?.['clientConfig']['caBundle'] as string, 'base64'));
    const serving = new X509Certificate(pem('tls.crt'));
    expect(serving.verify(ca.publicKey)).toBe(true);
    expect(serving.checkHost(`${NAME}.rollout-doctor.svc`)).toBe(`${NAME}.rollout-doctor.svc`);
    expect(pem('ca.crt')).toBe(ca.toString());
  });

  it('takes the certificate from cert-manager when asked: a Certificate, the CA injected, no Secret of its own', () => {
    const objects = rendered('admission-cert-manager');
    const certificate = get(objects, 'Certificate');
    expect(certificate['spec']['issuerRef']).toEqual({ name: 'cluster-ca', kind: 'ClusterIssuer' });
    expect(certificate['spec']['dnsNames']).toContain(`${NAME}.rollout-doctor.svc`);
    const configuration = get(objects, 'ValidatingWebhookConfiguration');
    expect(configuration['metadata']['annotations']).toEqual({
      'cert-manager.io/inject-ca-from': `rollout-doctor/${NAME}`,
    });
    expect(configuration['webhooks'][0]['clientConfig']['caBundle']).toBeUndefined();
    expect(find(objects, 'Secret', `${NAME}-tls`)).toBeUndefined();
    expect(configuration['webhooks'][0]['namespaceSelector']['matchExpressions'][0]['values']).toEqual([
      'kube-system',
      'rollout-doctor',
    ]);
  });

  it('serves with the chart certificate, trusted through the caBundle, and asks only what its ClusterRole grants', async () => {
    const objects = rendered('admission-webhook');
    const secret = get(objects, 'Secret', `${NAME}-tls`);
    const cert = join(dir, 'tls.crt');
    const key = join(dir, 'tls.key');
    writeFileSync(cert, Buffer.from(secret['data']['tls.crt'] as string, 'base64'));
    writeFileSync(key, Buffer.from(secret['data']['tls.key'] as string, 'base64'));
    const caBundle = Buffer.from(
      get(objects, 'ValidatingWebhookConfiguration')['webhooks'][0]['clientConfig']['caBundle'],
      'base64',
    );
    const sim = await startSimClient(
      { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
      'admission-chart',
    );
    const logger = createLogger({ level: 'silent', name: 'admission-chart' });
    const server = await serveAdmission({
      kube: { kubeconfig: sim.kubeconfig },
      port: 0,
      host: '127.0.0.1',
      tlsCert: cert,
      tlsKey: key,
      budgetMs: 5000,
      cacheSeconds: 10,
      logger,
    });
    try {
      await sim.sim.settle();
      // Reviews are sent once it is Ready (its first read: counted among what it asks below).
      await server.ready;
      const live = sim.sim.get('Deployment', 'vision', 'vision-object-tracker') as Json;
      const next = structuredClone(live);
      next['spec']['template']['spec']['containers'][0]['image'] = 'vision/boost-track-app:1.1';
      const body = JSON.stringify({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: {
          uid: 'u1',
          kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
          resource: { group: 'apps', version: 'v1', resource: 'deployments' },
          namespace: 'vision',
          operation: 'UPDATE',
          object: next,
          oldObject: live,
        },
      });
      const answer = await new Promise<Json>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: server.port,
            method: 'POST',
            path: '/validate',
            ca: caBundle,
            // The API server checks the name it called: the Service's.
            servername: `${NAME}.rollout-doctor.svc`,
            checkServerIdentity: (_host, peer) =>
              new X509Certificate(peer.raw).checkHost(`${NAME}.rollout-doctor.svc`)
                ? undefined
                : new Error('wrong name'),
            headers: { 'content-type': 'application/json' },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString()) as Json));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(answer['response']['warnings'][0]).toContain('can never finish');
      const rules = get(objects, 'ClusterRole')['rules'] as Json[];
      const granted = (verb: string, resource: string): boolean =>
        rules.some((r) => r['verbs'].includes(verb) && r['resources'].includes(resource));
      // A list of a group the simulator does not serve (Karpenter's NodePools, no CRD
      // stored) is recorded by path: the API server authorizes it as that list all the same.
      const unserved = (path: string): string => {
        const [, apis, , , plural, extra] = path.split('/');
        return apis === 'apis' && plural && extra === undefined ? `list ${plural}` : `get ${path}`;
      };
      const asked = sim.sim.requests.map((r) => (r.resource ? `${r.verb} ${r.resource}` : unserved(r.path)));
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.filter((a) => !granted(a.split(' ')[0] ?? '', a.split(' ')[1] ?? ''))).toEqual([]);
    } finally {
      await server.close();
      await sim.close();
    }
  });
});
