import { diagnose } from '../engine/diagnose.js';
import type { KubeClient } from '../kube/client.js';
import { collectSnapshot } from '../kube/read/collector.js';
import { applyPlan } from '../apply/apply-plan.js';
import { dryRunPlan } from '../kube/write/executor.js';
import { inversePlan } from '../remediation/inverse.js';
import { resolveWorkloadForPod } from '../kube/read/pod-owner.js';
import { watchReplacements, watchRollout } from '../kube/watch/rollout-watcher.js';
import { scanCluster } from '../kube/read/scan.js';
import { listExclusions } from '../kube/read/exclusion-reads.js';
import { listObjects } from '../kube/list.js';
import type { Node } from '../diagnosis/k8s.js';
import { kubeListWatch } from './early-warning/stream.js';
import type { ClusterDeps } from './runtime.js';
import { proposeForPlan } from '../propose/for-plan.js';
import { toolsFrom } from '../propose/tool.js';
import { liveSource } from '../check/live-source.js';

/**
 * The real Kubernetes side of the workers: collector, diagnosis engine, executor
 * and rollout watcher over one client. Shared by workers/main.ts and the
 * end-to-end tests, so both run exactly the same wiring.
 *
 * @example
 * startWorkers(config, logger, kubeClusterDeps(createKubeClient({ kubeconfig }), { rolloutTimeoutMs: 300_000 }));
 */
export function kubeClusterDeps(
  client: KubeClient,
  options: {
    rolloutTimeoutMs: number;
    redactLogs?: boolean;
    argocdNamespace?: string;
    /** How long a node exclusion lasts (ROLLOUT_DOCTOR_EXCLUSION_TTL); absent: the default. */
    exclusionTtl?: string;
    /** Where the expiry sweep looks for exclusions (`['*']`, the default: every namespace). */
    exclusionNamespaces?: readonly string[];
    /**
     * The Git token and REST API base for "Propose in Git" (docs/propose-in-git.md);
     * absent: this worker proposes nothing and says so in the thread.
     */
    git?: { token: string; githubApi: string; env: Readonly<Record<string, string | undefined>> };
  },
): ClusterDeps {
  const redactSecrets = options.redactLogs ?? true;
  const ttl = options.exclusionTtl === undefined ? {} : { exclusionTtl: options.exclusionTtl };
  const collect = { ...(options.argocdNamespace ? { argocdNamespace: options.argocdNamespace } : {}) };
  return {
    collect: (ref, onProgress) => collectSnapshot(client, ref, { ...collect, onProgress }),
    diagnose: (snapshot) => diagnose(snapshot, { redactSecrets, ...ttl }),
    dryRun: (plan) => dryRunPlan(client, plan),
    exclusions: {
      list: () => listExclusions(client, options.exclusionNamespaces ?? ['*']),
      nodes: async () => {
        const list = await listObjects<Node>(client, { resource: 'nodes' }, { limit: 500, maxPages: 10 });
        return { nodes: list.items, complete: !list.truncated };
      },
    },
    scan: (namespace, onProgress) =>
      scanCluster(client, namespace ? { namespace, onProgress } : { allNamespaces: true, onProgress }),
    resolvePodOwner: (namespace, pod) => resolveWorkloadForPod(client, namespace, pod),
    apply: (plan, hooks) =>
      applyPlan(client, plan, {
        ...(hooks?.onStep ? { step: { onStep: hooks.onStep } } : {}),
        ...(hooks?.now ? { now: () => new Date(hooks.now?.() ?? Date.now()) } : {}),
      }),
    watch: (ref, sinceGeneration, replaced) =>
      replaced
        ? watchReplacements(client, ref, { timeoutMs: options.rolloutTimeoutMs, replaced })
        : watchRollout(client, ref, { timeoutMs: options.rolloutTimeoutMs, sinceGeneration }),
    currentFinding: async (ref) =>
      diagnose(await collectSnapshot(client, ref, collect), { redactSecrets }).findings[0]?.summary,
    inverse: inversePlan,
    listWatch: kubeListWatch(client),
    ...(options.git ? { propose: proposeDep(client, collect, { redactSecrets, ...ttl }, options.git) } : {}),
  };
}

/** The engine on a stored plan, over this client (src/propose/for-plan.ts). */
function proposeDep(
  client: KubeClient,
  collect: { argocdNamespace?: string },
  diagnoseOptions: Parameters<typeof diagnose>[1],
  git: NonNullable<Parameters<typeof kubeClusterDeps>[1]['git']>,
): NonNullable<ClusterDeps['propose']> {
  return (stored, context) =>
    proposeForPlan(
      {
        collect: (ref) => collectSnapshot(client, ref, collect),
        diagnose: (snapshot) => diagnose(snapshot, diagnoseOptions),
        source: liveSource(client),
        against: `the cluster (context ${client.context})`,
        token: git.token,
        githubApi: git.githubApi,
        tools: toolsFrom(git.env),
      },
      stored.plan,
      context,
    );
}
