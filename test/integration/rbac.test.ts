/**
 * Least privilege, checked against behaviour: every request the worker's cluster
 * code (src/kube) sends while doing everything it can do is recorded by the
 * simulator, and deploy/worker-rbac.yaml must grant exactly that set — each used
 * (verb, resource, apiGroup) and nothing else. The app gets no Kubernetes rights.
 * The Helm chart's RBAC, rendered by the real helm for each install shape (default,
 * worker-only, namespaced, with owner settings), is held to the same inventory.
 */
import { asDeployment } from '../support/k8s-builders.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoScenarioObjects, BAD_NODE, CHECKOUT, TRACKER } from '../../scripts/demo-scenario.js';
import { startSimulator, type RecordedRequest, type Simulator } from '../../sim/index.js';
import {
  daemonSetSettled,
  NODE_AGENT,
  shipDaemonSetImage,
  shipTrackerImage,
} from '../support/sim-rollout.js';
import { isCrashLooping } from '../../src/diagnosis/crash/container-failures.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { dryRunPlan } from '../../src/kube/write/executor.js';
import { inversePlan } from '../../src/remediation/inverse.js';
import { DETECTOR, deviceHealthScenario } from '../support/dra-health-scenario.js';
import { EDGE, edgeScenario, rollToDeadlock } from '../support/edge-ingress.js';
import { resolveWorkloadForPod } from '../../src/kube/read/pod-owner.js';
import { watchReplacements, watchRollout } from '../../src/kube/watch/rollout-watcher.js';
import { scanCluster } from '../../src/kube/read/scan.js';
import { emptyStats, kubeListWatch, runListWatch } from '../../src/worker/early-warning/stream.js';
import { buildRolloutRestartPlans } from '../../src/remediation/builders/rollout-restart.js';
import { buildAbortRolloutPlans } from '../../src/remediation/builders/abort-rollout.js';
import type { RemediationKind, RemediationPlan } from '../../src/remediation/plan.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { ciValues, helmTemplate, type TemplateOptions } from '../support/helm.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';
import { waitUntil } from '../support/wait.js';

const RBAC_FILE = 'deploy/worker-rbac.yaml';
/** The optional, namespaced reads of the GitOps owner's settings. */
const OWNER_RBAC_FILE = 'deploy/owner-settings/rbac.yaml';
/** The group-versions whose discovery the worker asks (system:discovery grants it to everyone). */
const DISCOVERY_PATHS = [
  '/apis/resource.k8s.io/v1',
  '/apis/argoproj.io/v1alpha1',
  '/apis/kustomize.toolkit.fluxcd.io/v1',
  '/apis/helm.toolkit.fluxcd.io/v2',
];
const WORKER_SA = 'rollout-doctor-worker';
const APP_SA = 'rollout-doctor-app';

let dir: string;
const sims: Simulator[] = [];
/** Every resource request the worker code sent, across both simulator runs. */
const recorded: RecordedRequest[] = [];
const applied = new Map<RemediationKind, string>();
const dryRun = new Set<RemediationKind>();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rbac-it-'));
});

afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function start(
  scenario: string | object[],
  name: string,
): Promise<{ sim: Simulator; client: KubeClient }> {
  const sim = await startSimulator({ scenario, timeScale: 50 });
  sims.push(sim);
  const file = join(dir, name);
  writeFileSync(file, sim.kubeconfig);
  return {
    sim,
    client: createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } }),
  };
}

const deployment = (s: Simulator, ref: WorkloadRef): Deployment =>
  s.get('Deployment', ref.namespace, ref.name) as Deployment;
const livePods = (s: Simulator, ns: string): Pod[] =>
  (s.list('Pod', ns) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);

/**
 * The test's own moves (the "developer" rolling out a new image) go straight to the
 * simulator over HTTP and are dropped from the record before the worker code runs.
 */
async function deadlockTracker(sim: Simulator): Promise<void> {
  await sim.waitFor(() => (deployment(sim, TRACKER).status?.availableReplicas ?? 0) === 1, SIGNAL_WAIT_MS);
  await shipTrackerImage(sim, TRACKER);
}

function planOf(plans: readonly RemediationPlan[], kind: RemediationKind): RemediationPlan {
  const plan = plans.find((p) => p.kind === kind);
  if (!plan) throw new Error(`no ${kind} plan among ${plans.map((p) => p.kind).join(', ')}`);
  return plan;
}

async function applyAndRecord(client: KubeClient, plan: RemediationPlan): Promise<number> {
  const dry = await dryRunPlan(client, plan);
  expect(dry, `dry run of ${plan.kind}`).toMatchObject({ ok: true });
  dryRun.add(plan.kind);
  const result = await applyPlan(client, plan);
  applied.set(plan.kind, result.status);
  expect(result.status, `${plan.kind}: ${'reason' in result ? result.reason : ''}`).toBe('applied');
  return result.status === 'applied' ? result.generation : 0;
}

/** A workload with a ReadWriteOnce volume: the collector and scan then read its claim. */
const LEDGER: WorkloadRef = { kind: 'Deployment', namespace: 'data', name: 'ledger' };
/**
 * A healthy workload with no volume and no node selection on the same node: the
 * collector lists no eligible nodes for it, so it reads its pod's node by hostname.
 */
const EXPORTER: WorkloadRef = { kind: 'Deployment', namespace: 'data', name: 'ledger-exporter' };

/**
 * Their node's hostname label is not the node's name (as on some cloud providers), so
 * the collector finds the exporter's node by name rather than by label.
 */
function addVolumeWorkload(sim: Simulator): void {
  sim.apply({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'ledger-node',
      labels: { 'kubernetes.io/hostname': 'ip-10-0-7-12', 'kubernetes.io/os': 'linux' },
    },
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
      nodeInfo: {
        architecture: 'amd64',
        operatingSystem: 'linux',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
      },
    },
  });
  // Bound to a PersistentVolume: the collector reads the volume by name (what guards it).
  sim.apply({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'ledger-data-pv' },
    spec: {
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '1Gi' },
      claimRef: { namespace: LEDGER.namespace, name: 'ledger-data' },
      hostPath: { path: '/var/lib/ledger' },
    },
    status: { phase: 'Bound' },
  });
  sim.apply({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'ledger-data', namespace: LEDGER.namespace },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      volumeName: 'ledger-data-pv',
    },
    status: { phase: 'Bound' },
  });
  sim.apply({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: LEDGER.name, namespace: LEDGER.namespace },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'ledger' } },
      template: {
        metadata: { labels: { app: 'ledger' } },
        spec: {
          nodeName: 'ledger-node',
          containers: [
            {
              name: 'ledger',
              image: 'data/ledger:1.0',
              volumeMounts: [{ name: 'data', mountPath: '/var/lib/ledger' }],
            },
          ],
          volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'ledger-data' } }],
        },
      },
    },
  });
  sim.apply({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: EXPORTER.name, namespace: EXPORTER.namespace },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'ledger-exporter' } },
      template: {
        metadata: { labels: { app: 'ledger-exporter' } },
        spec: {
          nodeName: 'ledger-node',
          containers: [{ name: 'exporter', image: 'data/ledger-exporter:1.0' }],
        },
      },
    },
  });
}

/**
 * The early warning's cluster-wide list-then-watch of pods and warning events, until
 * the API server has received both watch requests (`permissions` reads what it saw).
 */
async function earlyWarningStreams(client: KubeClient, permissions: () => string[]): Promise<void> {
  const abort = new AbortController();
  const stats = emptyStats();
  const logger = { warn: () => undefined, debug: () => undefined };
  const handlers = { onListPage: () => undefined, onEvent: () => undefined };
  const runs = [
    runListWatch(kubeListWatch(client), { resource: 'pods' }, handlers, {
      signal: abort.signal,
      stats,
      logger,
    }),
    runListWatch(
      kubeListWatch(client),
      { resource: 'events', fieldSelector: 'involvedObject.kind=Pod,type=Warning' },
      handlers,
      { signal: abort.signal, stats, logger },
    ),
  ];
  const watching = (): boolean => {
    const seen = permissions();
    return seen.includes('watch pods core') && seen.includes('watch events core');
  };
  await waitUntil('both watches open', watching);
  abort.abort();
  await Promise.all(runs);
  expect(stats.watches).toBeGreaterThanOrEqual(2);
}

/** Both seed incidents in one cluster; the strategy fix is set-rolling-update. */
async function fullRun(): Promise<void> {
  const { sim, client } = await start(await demoScenarioObjects(), 'both');
  addVolumeWorkload(sim);
  await deadlockTracker(sim);
  // A crash loop, not one restart: right after its first restart the container runs
  // again, and one restart alone is not a crash loop (isCrashLooping).
  await sim.waitFor(
    () =>
      livePods(sim, 'shop').some(
        (p) =>
          p.spec.nodeName === BAD_NODE &&
          (p.status?.containerStatuses ?? []).some((s) => isCrashLooping(s, Date.now())),
      ),
    SIGNAL_WAIT_MS,
  );
  sim.clearRequests();

  const trackerSnap = await collectSnapshot(client, TRACKER);
  const tracker = diagnose(trackerSnap);
  const checkoutSnap = await collectSnapshot(client, CHECKOUT);
  const checkout = diagnose(checkoutSnap);
  expect(tracker.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
  expect(checkout.findings.map((f) => f.code)).toContain('CrashLoopOnNode');
  expect(asDeployment(await collectSnapshot(client, LEDGER)).deployment.metadata.name).toBe(LEDGER.name);
  await sim.waitFor(() => livePods(sim, 'data').filter((p) => p.status?.phase === 'Running').length === 2);
  const exporter = await collectSnapshot(client, EXPORTER);
  expect(exporter.nodes.map((n) => n.metadata.name)).toEqual(['ledger-node']);
  await scanCluster(client, { allNamespaces: true });
  await scanCluster(client, { namespace: CHECKOUT.namespace });
  await earlyWarningStreams(client, () => sim.requests.map(permissionOf));
  const crashing = livePods(sim, 'shop').find((p) => p.spec.nodeName === BAD_NODE);
  expect(await resolveWorkloadForPod(client, 'shop', crashing?.metadata.name ?? '')).toMatchObject(CHECKOUT);

  const generation = await applyAndRecord(client, planOf(tracker.remediations, 'set-rolling-update'));
  expect(
    (await watchRollout(client, TRACKER, { timeoutMs: 20_000, sinceGeneration: generation, pollMs: 200 }))
      .outcome,
  ).toBe('complete');

  await applyAndRecord(client, planOf(checkout.remediations, 'delete-pods'));
  const excluded = await applyAndRecord(client, planOf(checkout.remediations, 'exclude-node'));
  expect(
    (await watchRollout(client, CHECKOUT, { timeoutMs: 20_000, sinceGeneration: excluded, pollMs: 200 }))
      .outcome,
  ).toBe('complete');

  // A plain restart is offered only when no deadlock stands: build it from the healthy state.
  const finding = checkout.findings.find((f) => f.code === 'CrashLoopOnNode');
  if (!finding) throw new Error('no CrashLoopOnNode finding');
  const restart = buildRolloutRestartPlans(
    new AnalysisContext(await collectSnapshot(client, CHECKOUT)),
    finding,
  );
  const restarted = await applyAndRecord(client, planOf(restart, 'rollout-restart'));
  expect(
    (await watchRollout(client, CHECKOUT, { timeoutMs: 20_000, sinceGeneration: restarted, pollMs: 200 }))
      .outcome,
  ).toBe('complete');
  record(sim);
}

/** The other strategy fix needs its own deadlock: set-recreate on a fresh tracker. */
async function recreateRun(): Promise<void> {
  const { sim, client } = await start('sim/scenarios/gpu-deadlock.yaml', 'gpu');
  await deadlockTracker(sim);
  sim.clearRequests();
  const tracker = diagnose(await collectSnapshot(client, TRACKER));
  const generation = await applyAndRecord(client, planOf(tracker.remediations, 'set-recreate'));
  expect(
    (await watchRollout(client, TRACKER, { timeoutMs: 20_000, sinceGeneration: generation, pollMs: 200 }))
      .outcome,
  ).toBe('complete');
  record(sim);
}

/**
 * The DRA twin of the tracker (GPUs through claims): the collector's and the scan's
 * resource.k8s.io reads (claims of every namespace, slices, classes, templates).
 */
async function draRun(): Promise<void> {
  const { sim, client } = await start('sim/scenarios/gpu-deadlock-dra.yaml', 'gpu-dra');
  await deadlockTracker(sim);
  sim.clearRequests();
  const tracker = diagnose(await collectSnapshot(client, TRACKER));
  expect(tracker.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
  await scanCluster(client, { namespace: TRACKER.namespace });
  record(sim);
}

/**
 * A GPU the driver reports Unhealthy behind a crash loop: discovery of DeviceTaintRule,
 * taint-device (create the rule, delete the holder pod) and its Undo (delete the rule).
 */
async function deviceHealthRun(): Promise<void> {
  const { sim, client } = await start(deviceHealthScenario(), 'gpu-health');
  await sim.waitFor(
    () =>
      livePods(sim, DETECTOR.namespace).some((p) =>
        (p.status?.containerStatuses ?? []).some((s) => isCrashLooping(s, Date.now())),
      ),
    SIGNAL_WAIT_MS,
  );
  sim.clearRequests();
  const detector = diagnose(await collectSnapshot(client, DETECTOR));
  const plan = planOf(detector.remediations, 'taint-device');
  const generation = await applyAndRecord(client, plan);
  const undo = inversePlan(plan, { generation, changes: [] });
  if (!undo) throw new Error('taint-device has no undo');
  await applyAndRecord(client, undo);
  record(sim);
}

/**
 * scale-old-replicaset on another fresh tracker: the old ReplicaSet's scale subresource;
 * and its Undo (scale-back-old-replicaset) while the new pod is held not-Ready.
 */
async function scaleRun(): Promise<void> {
  const { sim, client } = await start('sim/scenarios/gpu-deadlock.yaml', 'gpu-scale');
  await deadlockTracker(sim);
  sim.clearRequests();
  const tracker = diagnose(await collectSnapshot(client, TRACKER));
  const plan = planOf(tracker.remediations, 'scale-old-replicaset');
  sim.readiness.hold();
  const generation = await applyAndRecord(client, plan);
  await sim.waitFor(() => sim.readiness.waiting() === 1, SIGNAL_WAIT_MS);
  const undo = inversePlan(plan, {
    generation,
    changes: [{ path: `replicasets/${plan.replicaSet?.name ?? ''}/spec/replicas`, before: 1, after: 0 }],
  });
  if (!undo) throw new Error('scale-old-replicaset has no undo');
  await applyAndRecord(client, undo);
  sim.readiness.release();
  expect(
    (await watchRollout(client, TRACKER, { timeoutMs: 20_000, sinceGeneration: generation, pollMs: 200 }))
      .outcome,
  ).toBe('complete');
  record(sim);
}

/** Three replicas holding hostPort 8080 on three nodes: the stepped scale-old-replicaset (pods patch). */
/**
 * The node agent DaemonSet deadlocked by its hostPort surge: the DaemonSet and its
 * ControllerRevisions read, the owner of one of its pods, the strategy fix on
 * spec.updateStrategy (dry run, apply) and the rollout watch (DaemonSet watch, its
 * revisions and pods listed for a crash check).
 */
async function daemonSetRun(): Promise<void> {
  const { sim, client } = await start('sim/scenarios/node-agent-surge.yaml', 'node-agent');
  await daemonSetSettled(sim);
  await shipDaemonSetImage(sim);
  sim.clearRequests();
  const agent = diagnose(await collectSnapshot(client, NODE_AGENT));
  expect(agent.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
  const pod = livePods(sim, NODE_AGENT.namespace)[0];
  expect(await resolveWorkloadForPod(client, NODE_AGENT.namespace, pod?.metadata.name ?? '')).toEqual(
    NODE_AGENT,
  );
  const generation = await applyAndRecord(client, planOf(agent.remediations, 'set-rolling-update'));
  expect(
    (await watchRollout(client, NODE_AGENT, { timeoutMs: 20_000, sinceGeneration: generation, pollMs: 200 }))
      .outcome,
  ).toBe('complete');
  record(sim);
}

/** A template naming a PriorityClass: the collector lists the cluster's classes. */
async function priorityRun(): Promise<void> {
  const { sim, client } = await start(
    [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'shop' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { priorityClassName: 'high', containers: [{ name: 'web', image: 'web:1' }] },
          },
        },
      },
    ],
    'priority',
  );
  sim.clearRequests();
  const snapshot = await collectSnapshot(client, { kind: 'Deployment', namespace: 'shop', name: 'web' });
  expect(snapshot.priorityClasses?.map((c) => c.metadata.name)).toContain('high');
  record(sim);
}

/**
 * The ledger StatefulSet's bad release, reverted: the StatefulSet and its revisions read,
 * a pod's owner, the forced rollback (delete-pods of the stuck pod, dry run and apply,
 * its replacement watched), a restart of the StatefulSet (patch, rollout watch) and a scan.
 */
async function statefulSetRun(): Promise<void> {
  const { sim, client } = await start('sim/scenarios/statefulset-bad-release.yaml', 'ledger');
  const ledger: WorkloadRef = { kind: 'StatefulSet', namespace: 'payments', name: 'ledger' };
  const sts = (): { status?: { readyReplicas?: number } } =>
    sim.get('StatefulSet', ledger.namespace, ledger.name) as { status?: { readyReplicas?: number } };
  await sim.waitFor(() => sts().status?.readyReplicas === 3, SIGNAL_WAIT_MS);
  const image = async (tag: string): Promise<void> => {
    const res = await fetch(`${sim.url}/apis/apps/v1/namespaces/payments/statefulsets/ledger`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
      body: JSON.stringify({
        spec: {
          template: {
            spec: { containers: [{ name: 'ledger', image: `registry.example.com/payments/ledger:${tag}` }] },
          },
        },
      }),
    });
    expect(res.status).toBe(200);
  };
  await image('3.5.0');
  await sim.waitFor(
    () =>
      (sim.get('Pod', 'payments', 'ledger-2') as Pod | undefined)?.status?.containerStatuses?.[0]?.state
        ?.waiting?.reason === 'CrashLoopBackOff',
    SIGNAL_WAIT_MS,
  );
  await image('3.4.1');
  await sim.settle();
  sim.clearRequests();
  const stuck = diagnose(await collectSnapshot(client, ledger));
  expect(stuck.findings.map((f) => f.code)).toContain('RolloutStuck');
  expect(await resolveWorkloadForPod(client, 'payments', 'ledger-0')).toEqual(ledger);
  const plan = planOf(stuck.remediations, 'delete-pods');
  await applyAndRecord(client, plan);
  expect(
    (await watchReplacements(client, ledger, { timeoutMs: 20_000, replaced: plan.pods ?? [], pollMs: 200 }))
      .outcome,
  ).toBe('complete');
  const snapshot = await collectSnapshot(client, ledger);
  const [restart] = buildRolloutRestartPlans(new AnalysisContext(snapshot), {
    code: 'CrashLoop',
    severity: 'critical',
    summary: '',
    evidence: [],
  });
  if (!restart) throw new Error('no rollout-restart plan for the StatefulSet');
  const generation = await applyAndRecord(client, restart);
  expect(
    (await watchRollout(client, ledger, { timeoutMs: 20_000, sinceGeneration: generation, pollMs: 200 }))
      .outcome,
  ).toBe('complete');
  await scanCluster(client, { namespace: 'payments' });
  record(sim);
}

/**
 * The GPU tracker as an Argo Rollout, its canary pod Pending on the stable pod's GPU: the
 * Rollout and its ReplicaSets read, a pod's owner, the canary-bounds fix (dry run, apply,
 * the Rollout watched to its pause step), the abort on the status subresource (dry run,
 * apply) and a scan listing Rollouts.
 */
async function argoRolloutRun(): Promise<void> {
  const { sim, client } = await start('sim/scenarios/gpu-deadlock-rollout.yaml', 'argo-rollout');
  const ref: WorkloadRef = { kind: 'Rollout', namespace: 'vision', name: 'vision-object-tracker' };
  const phase = (): string | undefined =>
    (sim.get('Rollout', ref.namespace, ref.name) as { status?: { phase?: string } }).status?.phase;
  await sim.waitFor(() => phase() === 'Healthy', SIGNAL_WAIT_MS);
  const res = await fetch(`${sim.url}/apis/argoproj.io/v1alpha1/namespaces/vision/rollouts/${ref.name}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json-patch+json' },
    body: JSON.stringify([
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'vision/boost-track-app:1.1' },
    ]),
  });
  expect(res.status).toBe(200);
  await sim.waitFor(
    () => (sim.list('Event', 'vision') as { reason?: string }[]).some((e) => e.reason === 'FailedScheduling'),
    SIGNAL_WAIT_MS,
  );
  sim.clearRequests();
  const stuck = diagnose(await collectSnapshot(client, ref));
  expect(stuck.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
  const pod = livePods(sim, ref.namespace)[0];
  expect(await resolveWorkloadForPod(client, ref.namespace, pod?.metadata.name ?? '')).toEqual(ref);
  const generation = await applyAndRecord(client, planOf(stuck.remediations, 'set-rolling-update'));
  expect(
    (await watchRollout(client, ref, { timeoutMs: 20_000, sinceGeneration: generation, pollMs: 200 }))
      .outcome,
  ).toBe('paused');
  // At its pause step the update is still under way: abort it (the status subresource).
  const [abort] = buildAbortRolloutPlans(new AnalysisContext(await collectSnapshot(client, ref)), {
    code: 'ProgressDeadlineExceeded',
    severity: 'critical',
    summary: '',
    evidence: [],
  });
  if (!abort) throw new Error('no abort-rollout plan');
  await applyAndRecord(client, abort);
  await scanCluster(client, { namespace: ref.namespace });
  record(sim);
}

async function steppedRun(): Promise<void> {
  const { sim, client } = await start(edgeScenario(), 'edge');
  await sim.waitFor(() => (deployment(sim, EDGE).status?.availableReplicas ?? 0) === 3, SIGNAL_WAIT_MS);
  await rollToDeadlock(sim, client);
  sim.clearRequests();
  const plans = diagnose(await collectSnapshot(client, EDGE)).remediations;
  const stepped = plans.find((p) => p.kind === 'scale-old-replicaset' && p.replicaSet?.stepped);
  if (!stepped) throw new Error('no stepped scale-old-replicaset plan');
  expect(await dryRunPlan(client, stepped)).toMatchObject({ ok: true });
  const result = await applyPlan(client, stepped, { step: { pollMs: 20, stepTimeoutMs: 15_000 } });
  expect(result.status).toBe('applied');
  record(sim);
}

/**
 * Three Deployments applied by Argo CD, a Flux Kustomization and a Flux HelmRelease,
 * with the CRDs installed and the owners' objects where deploy/owner-settings expects
 * them: the collector reads each owner's settings object once.
 */
async function ownerRun(): Promise<void> {
  const crd = (plural: string, group: string) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
  });
  const deploymentOf = (
    name: string,
    labels: Record<string, string>,
    annotations: Record<string, string> = {},
  ) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'web', labels: { app: name, ...labels }, annotations },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image: 'web:1' }] },
      },
    },
  });
  const { sim, client } = await start(
    [
      crd('applications', 'argoproj.io'),
      crd('kustomizations', 'kustomize.toolkit.fluxcd.io'),
      crd('helmreleases', 'helm.toolkit.fluxcd.io'),
      crd('gitrepositories', 'source.toolkit.fluxcd.io'),
      {
        apiVersion: 'source.toolkit.fluxcd.io/v1',
        kind: 'GitRepository',
        metadata: { name: 'apps', namespace: 'flux-system' },
        spec: { url: 'https://git.example/apps.git', ref: { branch: 'main' } },
      },
      {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: { name: 'web', namespace: 'argocd' },
        spec: {},
      },
      {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: { name: 'apps', namespace: 'flux-system' },
        spec: { sourceRef: { kind: 'GitRepository', name: 'apps' }, path: './web' },
      },
      {
        apiVersion: 'helm.toolkit.fluxcd.io/v2',
        kind: 'HelmRelease',
        metadata: { name: 'api', namespace: 'flux-system' },
        spec: {},
      },
      deploymentOf('argo', {}, { 'argocd.argoproj.io/tracking-id': 'web:apps/Deployment:web/argo' }),
      deploymentOf('flux', {
        'kustomize.toolkit.fluxcd.io/name': 'apps',
        'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
      }),
      deploymentOf('helm', {
        'helm.toolkit.fluxcd.io/name': 'api',
        'helm.toolkit.fluxcd.io/namespace': 'flux-system',
      }),
    ],
    'owners',
  );
  sim.clearRequests();
  for (const name of ['argo', 'flux', 'helm']) {
    const snapshot = await collectSnapshot(client, { kind: 'Deployment', namespace: 'web', name });
    expect(snapshot.ownerSettings?.state, name).toBe('read');
    if (name === 'flux')
      expect(snapshot.ownerSettings?.source, name).toMatchObject({ kind: 'GitRepository' });
  }
  record(sim);
}

/**
 * Keeps what the worker sent. A path the simulator serves nothing at (a CRD that is not
 * installed: Argo Rollouts in most runs) is still a resource request to RBAC, which the
 * API server authorizes from the path before it answers 404: it is recorded as one.
 */
function record(sim: Simulator): void {
  for (const r of sim.requests) {
    const unserved = r.resource === '' ? UNSERVED.exec(r.path) : null;
    recorded.push(unserved ? { ...r, resource: unserved[1] ?? '', verb: unserved[2] ? 'get' : 'list' } : r);
  }
}

/** /apis/argoproj.io/v1alpha1/[namespaces/NS/]rollouts[/NAME] with no CRD behind it. */
const UNSERVED =
  /^\/apis\/argoproj\.io\/v1alpha1\/(?:namespaces\/[^/]+\/)?(rollouts|analysisruns)(\/[^/]+)?$/;

/** "verb resource[/subresource] group" as RBAC sees a request; the group comes from the path. */
function permissionOf(r: RecordedRequest): string {
  const group = r.path.startsWith('/apis/') ? (r.path.split('/')[2] ?? '') : '';
  return `${r.verb} ${r.subresource ? `${r.resource}/${r.subresource}` : r.resource} ${group || 'core'}`;
}

const ruleSchema = z.object({
  apiGroups: z.array(z.string()),
  resources: z.array(z.string()),
  verbs: z.array(z.string()),
  resourceNames: z.array(z.string()).optional(),
  nonResourceURLs: z.array(z.string()).optional(),
});
const docSchema = z.looseObject({
  kind: z.string(),
  metadata: z.looseObject({ name: z.string(), namespace: z.string().optional() }),
  rules: z.array(ruleSchema).optional(),
  roleRef: z.object({ kind: z.string(), name: z.string(), apiGroup: z.string() }).optional(),
  subjects: z
    .array(z.object({ kind: z.string(), name: z.string(), namespace: z.string().optional() }))
    .optional(),
});
type Doc = z.infer<typeof docSchema>;

function parseDocs(text: string): Doc[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as unknown)
    .filter((d) => d !== null && d !== undefined)
    .map((d) => docSchema.parse(d));
}

function granted(docs: readonly Doc[]): Set<string> {
  const out = new Set<string>();
  for (const doc of docs.filter((d) => d.kind === 'ClusterRole' || d.kind === 'Role')) {
    for (const rule of doc.rules ?? []) {
      for (const group of rule.apiGroups)
        for (const resource of rule.resources)
          for (const verb of rule.verbs) out.add(`${verb} ${resource} ${group || 'core'}`);
    }
  }
  return out;
}

describe('worker RBAC (deploy/worker-rbac.yaml) against what the worker code sends', () => {
  const docs = parseDocs(readFileSync(RBAC_FILE, 'utf8'));
  const ownerDocs = parseDocs(readFileSync(OWNER_RBAC_FILE, 'utf8'));

  it('records the worker doing everything it does: both incidents, scan, owner lookup, every remediation kind, rollout watches', async () => {
    await fullRun();
    await recreateRun();
    await draRun();
    await scaleRun();
    await steppedRun();
    await deviceHealthRun();
    await ownerRun();
    await daemonSetRun();
    await statefulSetRun();
    await argoRolloutRun();
    await priorityRun();
    expect([...dryRun].sort()).toEqual([
      'abort-rollout',
      'delete-pods',
      'exclude-node',
      'rollout-restart',
      'scale-back-old-replicaset',
      'scale-old-replicaset',
      'set-recreate',
      'set-rolling-update',
      'taint-device',
      'untaint-device',
    ]);
    expect([...applied.values()].every((s) => s === 'applied')).toBe(true);
    expect(recorded.some((r) => r.dryRun)).toBe(true);
    // Only API resources, and the group-version discoveries that ask whether DeviceTaintRule and
    // the GitOps owners' kinds are served (system:discovery grants them to every authenticated
    // user): no other non-resource URL.
    expect(
      recorded
        .filter((r) => r.resource === '' && !DISCOVERY_PATHS.includes(r.path.split('?')[0] ?? ''))
        .map((r) => r.path),
    ).toEqual([]);
    for (const path of DISCOVERY_PATHS)
      expect(recorded.some((r) => r.resource === '' && r.path === path)).toBe(true);
  });

  it('grants every (verb, resource, apiGroup) that was sent, and nothing that never was', () => {
    expect(recorded.length).toBeGreaterThan(0);
    // Discovery is not a resource: RBAC grants it through system:discovery (see the first test).
    const used = new Set(recorded.filter((r) => r.resource !== '').map(permissionOf));
    const grants = granted([...docs, ...ownerDocs]);
    expect([...used].filter((p) => !grants.has(p)).sort(), 'used but not granted').toEqual([]);
    expect([...grants].filter((p) => !used.has(p)).sort(), 'granted but never used').toEqual([]);
    // The story of the issue, spelled out: reads, patch Deployments, delete Pods, and no create/update
    // anywhere but the one DeviceTaintRule of an approved taint-device plan.
    expect(used).toContain('patch deployments apps');
    expect(used).toContain('delete pods core');
    expect(used).toContain('get pods/log core');
    expect([...used].filter((p) => /^(create|update|deletecollection) /.test(p))).toEqual([
      'create devicetaintrules resource.k8s.io',
    ]);
  });

  it("reads the GitOps owners' settings only with get, in the namespaces whose Roles grant it, and deploy/ grants none of it cluster-wide", () => {
    const ownerResources = new Set(['applications', 'kustomizations', 'helmreleases', 'gitrepositories']);
    const reads = recorded.filter((r) => ownerResources.has(r.resource));
    expect(reads.length).toBeGreaterThanOrEqual(3);
    const roles = ownerDocs.filter((d) => d.kind === 'Role');
    expect(ownerDocs.filter((d) => d.kind === 'ClusterRole' || d.kind === 'ClusterRoleBinding')).toEqual([]);
    for (const r of reads) {
      const permission = permissionOf(r);
      const grantedHere = roles.filter((role) => role.metadata.namespace === r.namespace);
      expect(granted(grantedHere).has(permission), `${permission} in ${r.namespace ?? ''}`).toBe(true);
      expect(r.verb).toBe('get');
    }
    for (const p of granted(docs))
      expect(p.split(' ')[1] ?? '', p).not.toMatch(
        /^(applications|kustomizations|helmreleases|gitrepositories)$/,
      );
    const bindings = ownerDocs.filter((d) => d.kind === 'RoleBinding');
    expect(bindings.map((b) => b.metadata.namespace).sort()).toEqual(
      roles.map((r) => r.metadata.namespace).sort(),
    );
    for (const b of bindings) {
      expect(b.roleRef?.kind).toBe('Role');
      expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: WORKER_SA, namespace: 'rollout-doctor' }]);
    }
  });

  it('uses no wildcards, resourceNames or nonResourceURLs, and binds the role to the worker service account only', () => {
    const roles = docs.filter((d) => d.kind === 'ClusterRole' || d.kind === 'Role');
    expect(roles.length).toBeGreaterThan(0);
    for (const rule of roles.flatMap((r) => r.rules ?? [])) {
      expect([...rule.apiGroups, ...rule.resources, ...rule.verbs]).not.toContain('*');
      expect(rule.nonResourceURLs).toBeUndefined();
    }
    const bindings = docs.filter((d) => d.kind === 'ClusterRoleBinding' || d.kind === 'RoleBinding');
    expect(bindings.length).toBeGreaterThan(0);
    for (const b of bindings) {
      expect(roles.map((r) => `${r.kind}/${r.metadata.name}`)).toContain(
        `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`,
      );
      expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: WORKER_SA, namespace: 'rollout-doctor' }]);
    }
    expect(docs.some((d) => d.kind === 'ServiceAccount' && d.metadata.name === WORKER_SA)).toBe(true);
  });

  it('renders with kustomize: the worker runs as that account, the app holds no token and no binding', () => {
    const rendered = parseAllDocuments(
      execFileSync('kubectl', ['kustomize', 'deploy/'], { encoding: 'utf8' }),
    )
      .map((d) => d.toJS() as unknown)
      .filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null);
    const byKindName = (kind: string, name: string): Record<string, unknown> | undefined =>
      rendered.find((d) => d.kind === kind && (d.metadata as { name?: string } | undefined)?.name === name);
    const podSpec = (name: string): Record<string, unknown> =>
      (byKindName('Deployment', name)?.spec as { template?: { spec?: Record<string, unknown> } } | undefined)
        ?.template?.spec ?? {};
    expect(podSpec('rollout-doctor-worker').serviceAccountName).toBe(WORKER_SA);
    expect(podSpec('rollout-doctor-app').serviceAccountName).toBe(APP_SA);
    expect(podSpec('rollout-doctor-app').automountServiceAccountToken).toBe(false);
    const subjects = rendered
      .filter((d) => d.kind === 'ClusterRoleBinding' || d.kind === 'RoleBinding')
      .flatMap((d) => (d.subjects as { name?: string; namespace?: string }[] | undefined) ?? []);
    expect(subjects.map((s) => `${s.namespace ?? ''}/${s.name ?? ''}`)).toEqual([
      `rollout-doctor/${WORKER_SA}`,
    ]);
    // The role in the rendered output is the same one the previous test checked.
    const rolesRendered = rendered
      .filter((d) => d.kind === 'ClusterRole' || d.kind === 'Role')
      .map((d) => docSchema.parse(d));
    expect(granted(rolesRendered)).toEqual(granted(docs));
  });

  /** The RBAC objects of a chart render, as parseDocs reads the kustomize files. */
  const chartRbac = (o: TemplateOptions): Doc[] =>
    helmTemplate(o)
      .filter((d) =>
        ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'].includes(d.kind),
      )
      .map((d) => docSchema.parse(d));
  const OWNER_RESOURCES = /^get (applications|kustomizations|helmreleases|gitrepositories) /;

  it('the chart grants exactly what the worker sends, by default and in a worker-only install: cluster-wide, no wildcard, the owner reads only when asked', () => {
    expect(recorded.length, 'the recording test ran first').toBeGreaterThan(0);
    const used = new Set(recorded.filter((r) => r.resource !== '').map(permissionOf));
    const withoutOwner = [...used].filter((p) => !OWNER_RESOURCES.test(p)).sort();
    for (const values of [[ciValues('default-http')], [ciValues('worker-only')]]) {
      const rendered = chartRbac({ values });
      expect([...granted(rendered)].sort(), values.join()).toEqual(withoutOwner);
      for (const rule of rendered.flatMap((r) => r.rules ?? []))
        expect([...rule.apiGroups, ...rule.resources, ...rule.verbs]).not.toContain('*');
      const bindings = rendered.filter((d) => d.kind.endsWith('Binding'));
      expect(bindings.map((b) => `${b.kind}/${b.roleRef?.name ?? ''}`)).toEqual([
        'ClusterRoleBinding/rollout-doctor-worker',
      ]);
    }
    const withOwner = chartRbac({ set: ['rbac.ownerSettings.enabled=true'] });
    expect([...granted(withOwner)].sort()).toEqual([...used].sort());
  });

  it("the chart binds the release's own worker account wherever it is installed", () => {
    const rendered = helmTemplate({ release: 'rd', namespace: 'ops' });
    const worker = rendered.find(
      (d) => d.kind === 'Deployment' && d.metadata.name === 'rd-rollout-doctor-worker',
    );
    const account = z
      .object({
        spec: z.object({
          template: z.object({ spec: z.object({ serviceAccountName: z.string() }).loose() }),
        }),
      })
      .parse(worker).spec.template.spec.serviceAccountName;
    expect(account).toBe('rd-rollout-doctor-worker');
    const rbac = rendered
      .filter((d) => d.kind.endsWith('Binding') && d.kind !== 'ValidatingAdmissionPolicyBinding')
      .map((d) => docSchema.parse(d));
    expect(rbac.flatMap((b) => b.subjects ?? [])).toEqual([
      { kind: 'ServiceAccount', name: account, namespace: 'ops' },
    ]);
    // The admission policies judge that account's writes, not rollout-doctor's default one.
    const conditions = rendered
      .filter((d) => d.kind === 'ValidatingAdmissionPolicy')
      .flatMap(
        (d) =>
          z
            .object({ spec: z.object({ matchConditions: z.array(z.object({ expression: z.string() })) }) })
            .parse(d).spec.matchConditions,
      );
    expect(conditions.length).toBe(8);
    for (const c of conditions)
      expect(c.expression).toBe(`request.userInfo.username == 'system:serviceaccount:ops:${account}'`);
  });

  it('the chart with namespaced RBAC binds the same role per namespace, Nodes read-only cluster-wide, owner settings as Roles where the reads go', () => {
    const rendered = chartRbac({ values: [ciValues('namespaced')] });
    const clusterBindings = rendered.filter((d) => d.kind === 'ClusterRoleBinding');
    expect(clusterBindings.map((b) => b.roleRef?.name)).toEqual(['rollout-doctor-worker-nodes']);
    const nodes = rendered.filter(
      (d) => d.kind === 'ClusterRole' && d.metadata.name === 'rollout-doctor-worker-nodes',
    );
    expect([...granted(nodes)]).toEqual([
      'get nodes core',
      'list nodes core',
      'get persistentvolumes core',
      'list storageclasses storage.k8s.io',
    ]);
    const perNamespace = rendered.filter(
      (d) => d.kind === 'RoleBinding' && d.roleRef?.kind === 'ClusterRole',
    );
    expect(perNamespace.map((b) => b.metadata.namespace).sort()).toEqual(['shop', 'vision']);
    for (const b of perNamespace) expect(b.roleRef?.name).toBe('rollout-doctor-worker');
    // Owner settings: a Role in each namespace the worker reads them from, get only.
    const reads = recorded.filter((r) => OWNER_RESOURCES.test(permissionOf(r)));
    expect(reads.length).toBeGreaterThanOrEqual(3);
    const roles = rendered.filter((d) => d.kind === 'Role');
    for (const r of reads) {
      const here = roles.filter((role) => role.metadata.namespace === r.namespace);
      expect(granted(here).has(permissionOf(r)), `${permissionOf(r)} in ${r.namespace ?? ''}`).toBe(true);
    }
    expect([...granted(roles)].every((p) => p.startsWith('get '))).toBe(true);
    expect(roles.map((r) => r.metadata.namespace).sort()).toEqual(['argocd', 'flux-system', 'tenants']);
  });
});
