/**
 * The simulator's validating webhooks seen through the real tools: kubectl 1.35 and helm 4
 * (scripts/k8s-tools.ts) and the image's own kubectl. A stub webhook over TLS from a test
 * CA warns on an image bump and refuses what is labelled deny. kubectl prints a warning as
 * `Warning: …` and exits 0, prints the refusal as the API server words it and exits 1;
 * with the webhook process gone, failurePolicy decides; helm shows the warning on install
 * and upgrade; `kubectl apply` validates a webhook configuration on the server's side.
 */
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { k8sTools } from '../../scripts/k8s-tools.js';
import { startSimulator, type Simulator } from '../../sim/index.js';
import {
  deploymentWebhook,
  makeTestCa,
  startStubWebhook,
  webhookConfiguration,
  WEBHOOK_NAME,
  type ReviewRequest,
  type StubWebhook,
} from '../support/stub-webhook.js';
import { runTool, type ToolRun } from '../support/tool-run.js';
import { onCI } from '../support/tools.js';

const HOOK = WEBHOOK_NAME;
const WARNING = 'rollout-doctor: the rollout of deployment/embedder can never finish';
const HELM_WARNING = new RegExp(
  `warnings\\.go:\\d+\\] "Warning: ${WARNING.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"\n$`,
);
const ca = makeTestCa();
let sim: Simulator;
let hook: StubWebhook;
let dir: string;
let kubeconfig: string;

function answer(r: ReviewRequest) {
  const meta = (r.object?.['metadata'] ?? {}) as { labels?: Record<string, string> };
  if (meta.labels?.['deny'] === 'please')
    return { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'no rollout today' } };
  const spec = (r.object?.['spec'] ?? {}) as { template?: { spec?: { containers?: { image?: string }[] } } };
  const image = spec.template?.spec?.containers?.[0]?.image ?? '';
  return image.endsWith(':2') ? { warnings: [WARNING] } : {};
}

const tool = (binary: string, args: readonly string[]): Promise<ToolRun> =>
  runTool(binary, args, { kubeconfig, home: dir });
const helm = (...args: string[]): Promise<ToolRun> => tool(k8sTools().helm, args);

function webhookConfig(url: string, failurePolicy: 'Fail' | 'Ignore', caBundle = hook.caBundle): string {
  return stringify(
    webhookConfiguration(
      'rollout-doctor',
      deploymentWebhook({ url, caBundle }, { failurePolicy, timeoutSeconds: 5 }),
    ),
  );
}

function deployment(image: string, labels: Record<string, string> = {}, name = 'embedder'): string {
  return stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'ml', labels: { app: 'embedder', ...labels } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'embedder' } },
      template: {
        metadata: { labels: { app: 'embedder' } },
        spec: { containers: [{ name: 'embedder', image }] },
      },
    },
  });
}

const apply = async (binary: string, manifest: string, ...extra: string[]): Promise<ToolRun> => {
  const file = join(dir, `manifest-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, manifest);
  return tool(binary, ['apply', '-f', file, ...extra]);
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-sim-webhooks-'));
  hook = await startStubWebhook(answer, { ca });
  sim = await startSimulator({
    scenario: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ml' } }],
    controllers: false,
  });
  kubeconfig = join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig);
});
afterAll(async () => {
  await sim?.close();
  await hook?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('kubectl 1.35 and a validating webhook in the simulator', () => {
  it('applies a webhook configuration, validated on the server, and is refused an invalid one', async () => {
    const bad = webhookConfig(hook.url, 'Fail')
      .replace('sideEffects: None\n', '')
      .replace('rollout-doctor\n', 'bad\n');
    const refused = await apply(k8sTools().kubectl, bad);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
    );
    // A misspelt field (failurePolicy would stay Fail) is refused by kubectl's strict validation…
    const typo = webhookConfig(hook.url, 'Fail').replace('failurePolicy: Fail', 'failurPolicy: Ignore');
    const strict = await apply(k8sTools().kubectl, typo);
    expect(strict.status).toBe(1);
    expect(strict.stderr).toContain(
      'ValidatingWebhookConfiguration in version "v1" cannot be handled as a ValidatingWebhookConfiguration: strict decoding error: unknown field "webhooks[0].failurPolicy"',
    );
    // …and only warned about with --validate=warn (the field dropped, the default kept).
    const warned = await apply(
      k8sTools().kubectl,
      typo.replace('rollout-doctor\n', 'typo\n'),
      '--validate=warn',
    );
    expect([warned.status, warned.stderr]).toEqual([
      0,
      'Warning: unknown field "webhooks[0].failurPolicy"\n',
    ]);
    const kept = sim.get('ValidatingWebhookConfiguration', undefined, 'typo') as {
      webhooks: { failurePolicy?: string }[];
    };
    expect(kept.webhooks[0]?.failurePolicy).toBe('Fail');
    expect(
      (await tool(k8sTools().kubectl, ['delete', 'validatingwebhookconfiguration', 'typo'])).status,
    ).toBe(0);
    const created = await apply(k8sTools().kubectl, webhookConfig(hook.url, 'Fail'));
    expect([created.status, created.stderr]).toEqual([0, '']);
    expect(created.stdout).toContain(
      'validatingwebhookconfiguration.admissionregistration.k8s.io/rollout-doctor created',
    );
    const writes = sim.requests.filter(
      (r) => r.resource === 'validatingwebhookconfigurations' && r.verb === 'create',
    );
    expect(writes.map((r) => new URLSearchParams(r.query).get('fieldValidation'))).toEqual([
      'Strict',
      'Strict',
      'Warn',
      'Strict',
    ]);
  });

  it('prints the warning on the bump and is not refused; a safe apply prints none', async () => {
    const safe = await apply(k8sTools().kubectl, deployment('embedder:1'));
    expect([safe.status, safe.stderr]).toEqual([0, '']);
    const bump = await apply(k8sTools().kubectl, deployment('embedder:2'));
    expect(bump.status).toBe(0);
    expect(bump.stderr).toBe(`Warning: ${WARNING}\n`);
    expect(bump.stdout).toContain('deployment.apps/embedder configured');
    const serverSide = await apply(
      k8sTools().kubectl,
      deployment('embedder:2', {}, 'embedder-ssa'),
      '--server-side',
    );
    expect([serverSide.status, serverSide.stderr]).toEqual([0, `Warning: ${WARNING}\n`]);
    const dryRun = await apply(
      k8sTools().kubectl,
      deployment('embedder:2', { tier: 'x' }),
      '--dry-run=server',
    );
    expect(dryRun.stderr).toBe(`Warning: ${WARNING}\n`);
    expect(hook.reviews.at(-1)?.request.dryRun).toBe(true);
  });

  it('is refused on allowed: false with the webhook’s message', async () => {
    const refused = await apply(k8sTools().kubectl, deployment('embedder:3', { deny: 'please' }));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`Error from server (Forbidden): error when applying patch:`);
    expect(refused.stderr).toContain(`admission webhook "${HOOK}" denied the request: no rollout today`);
  });

  it('with the webhook process gone: failurePolicy Ignore lets the apply through, Fail refuses it', async () => {
    const gone = await startStubWebhook(answer, { ca });
    await gone.close();
    const setIgnore = await apply(k8sTools().kubectl, webhookConfig(gone.url, 'Ignore'));
    expect([setIgnore.status, setIgnore.stdout]).toEqual([
      0,
      'validatingwebhookconfiguration.admissionregistration.k8s.io/rollout-doctor configured\n',
    ]);
    const through = await apply(k8sTools().kubectl, deployment('embedder:2', { tier: 'gone' }));
    expect([through.status, through.stderr]).toEqual([0, '']);
    expect((await apply(k8sTools().kubectl, webhookConfig(gone.url, 'Fail'))).status).toBe(0);
    const refused = await apply(k8sTools().kubectl, deployment('embedder:2', { tier: 'refused' }));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`Error from server (InternalError): error when applying patch:`);
    expect(refused.stderr).toContain(
      `Internal error occurred: failed calling webhook "${HOOK}": failed to call webhook: Post "${gone.url}?timeout=5s": dial tcp 127.0.0.1:${gone.port}: connect: connection refused`,
    );
    expect((await apply(k8sTools().kubectl, webhookConfig(hook.url, 'Fail'))).status).toBe(0);
  });
});

/**
 * The image's kubectl, and the oldest and newest it ships beside it (as kubectl.test.ts).
 * kubectl 1.27 validates with OpenAPI v2 only, which the simulator does not serve: it
 * applies with --validate=false.
 */
const IMAGE_KUBECTL = realpathSync('/usr/bin/kubectl');
const IMAGE_KUBECTLS = [
  { version: 'default', binary: 'kubectl', args: [] as string[] },
  { version: '1.27', binary: join(dirname(IMAGE_KUBECTL), 'kubectl.1.27'), args: ['--validate=false'] },
  { version: '1.33', binary: join(dirname(IMAGE_KUBECTL), 'kubectl.1.33'), args: [] as string[] },
];

describe("the image's kubectl", () => {
  for (const { version, binary, args } of IMAGE_KUBECTLS) {
    it.skipIf(!onCI && binary !== 'kubectl' && !existsSync(binary))(
      `prints the warning and the refusal too (kubectl ${version})`,
      async () => {
        const bump = await apply(binary, deployment('embedder:2', { tier: `image-${version}` }), ...args);
        expect([bump.status, bump.stderr]).toEqual([0, `Warning: ${WARNING}\n`]);
        const refused = await apply(binary, deployment('embedder:2', { deny: 'please' }), ...args);
        expect(refused.status).toBe(1);
        expect(refused.stderr).toContain(`admission webhook "${HOOK}" denied the request: no rollout today`);
      },
    );
  }
});

describe('helm 4 and a validating webhook in the simulator', () => {
  it('shows the warning on install and upgrade', async () => {
    expect((await apply(k8sTools().kubectl, webhookConfig(hook.url, 'Fail'))).status).toBe(0);
    const chart = join(dir, 'embedder-chart');
    await mkdir(join(chart, 'templates'), { recursive: true });
    await writeFile(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: embedder\nversion: 0.1.0\n');
    await writeFile(join(chart, 'values.yaml'), 'image: embedder:1\n');
    await writeFile(
      join(chart, 'templates', 'deployment.yaml'),
      deployment('IMAGE', {}, 'embedder-helm').replace('IMAGE', '{{ .Values.image }}'),
    );
    const install = await helm(
      'install',
      'embedder',
      chart,
      '--namespace',
      'ml',
      '--set',
      'image=embedder:2',
    );
    expect(install.status, install.stderr).toBe(0);
    // helm 4 leaves warnings to client-go's default handler, which logs them through klog.
    expect(install.stderr).toMatch(HELM_WARNING);
    const upgrade = await helm(
      'upgrade',
      'embedder',
      chart,
      '--namespace',
      'ml',
      '--set',
      'image=embedder:1',
    );
    expect([upgrade.status, upgrade.stderr]).toEqual([0, '']);
    const again = await helm('upgrade', 'embedder', chart, '--namespace', 'ml', '--set', 'image=embedder:2');
    expect(again.status).toBe(0);
    expect(again.stderr).toMatch(HELM_WARNING);
  });
});
