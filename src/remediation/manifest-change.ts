/**
 * The permanent fix as a change to commit (DESIGN.md §4): for a surge deadlock, the
 * minimal change to the Deployment's manifest, as a unified diff of its YAML, for the
 * person to make in the source of truth (Git for Argo CD and Flux, the chart for
 * Helm, the applied file for kubectl apply). A live patch fixes this rollout; only the
 * manifest fixes the next one.
 *
 * - The strategy: RollingUpdate with maxSurge 0 and maxUnavailable 1, replacing the
 *   manifest's strategy lines when the desired manifest shows them (last-applied), or
 *   added when the manifest has none.
 * - For a required pod anti-affinity that repels the Deployment's own pods:
 *   `matchLabelKeys: [pod-template-hash]` on that term (Kubernetes 1.31 and later).
 *   It helps from the rollout after the one that adds it, because pods created without
 *   it still repel the new ones: never a live fix.
 *
 * Pure.
 */
import type { ManagedBy } from '../diagnosis/ownership.js';
import type { Finding } from '../diagnosis/finding.js';
import type { PodAffinityTerm } from '../diagnosis/k8s.js';
import { workloadKind, type WorkloadKindModule } from '../diagnosis/workloads/index.js';
import type { WorkloadObject } from '../diagnosis/snapshot/types.js';
import type { WorkloadKind } from '../diagnosis/workload-ref.js';
import { desiredManifest } from '../diagnosis/ownership.js';
import { matchesLabelSelector } from '../diagnosis/base/pod-constraints.js';
import { ownerName } from './drift.js';
import { REMEDIATION_SENTENCES as S } from './sentences.js';

/**
 * The permanent fix as a change to commit: the minimal change to the Deployment's
 * manifest (a unified diff of its YAML) in its source of truth.
 */
export interface ManifestChange {
  /** The finding code it makes permanent. */
  addresses: string;
  /** Where to make it: "Git: the manifest Argo CD application shop applies", a chart, a file. */
  where: string;
  /** Unified-diff lines of the manifest (' ' context, '-' removed, '+' added). */
  diff: string;
  /** When it applies and when it helps (server versions, not a live fix). */
  notes: string[];
}

const HASH_LABEL = 'pod-template-hash';
const FIXED_STRATEGY = ['type: RollingUpdate', 'rollingUpdate:', '  maxSurge: 0', '  maxUnavailable: 1'];

function where(owner: ManagedBy | undefined): string {
  if (!owner) return S.whereUnknown.en();
  switch (owner.tool) {
    case 'argocd':
    case 'flux-kustomize':
      return S.whereGit.en({ owner: ownerName(owner) });
    case 'flux-helm':
    case 'helm':
      return S.whereChart.en({ owner: ownerName(owner) });
    case 'kubectl':
      return S.whereKubectl.en();
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Scalars and small maps as YAML lines, two-space indents. */
function yamlLines(value: unknown, indent = ''): string[] {
  if (!isRecord(value)) return [`${indent}${JSON.stringify(value)}`];
  const out: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (isRecord(v)) out.push(`${indent}${key}:`, ...yamlLines(v, `${indent}  `));
    else
      out.push(`${indent}${key}: ${typeof v === 'string' && /^[\w.%-]+$/.test(v) ? v : JSON.stringify(v)}`);
  }
  return out;
}

/** The manifest's own strategy, when the desired manifest (last-applied) shows it; null when it has none. */
/** Where a kind keeps its update strategy (its module says): spec.strategy, or spec.updateStrategy. */
type StrategyField = WorkloadKindModule['strategyAt']['field'];

function manifestStrategy(
  deployment: WorkloadObject,
  owner: ManagedBy | undefined,
  field: StrategyField,
): unknown {
  const manifest = owner
    ? desiredManifest(deployment.metadata, owner)
    : (() => {
        const text = deployment.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
        if (text === undefined) return { source: 'unknown' as const, reason: '' };
        try {
          return { source: 'last-applied' as const, object: JSON.parse(text) as unknown };
        } catch {
          return { source: 'unknown' as const, reason: '' };
        }
      })();
  if (manifest.source === 'last-applied') {
    const spec = isRecord(manifest.object) ? manifest.object.spec : undefined;
    return isRecord(spec) && spec[field] !== undefined ? spec[field] : null;
  }
  if (manifest.source === 'managed-fields') {
    const inAny = manifest.fields.some((tree) => isRecord(tree['f:spec']) && `f:${field}` in tree['f:spec']);
    // The fields are known, their values are the live ones.
    const live: unknown = (deployment.spec as Record<string, unknown>)[field];
    return inAny ? (live ?? null) : null;
  }
  return undefined;
}

function strategyChange(
  deployment: WorkloadObject,
  owner: ManagedBy | undefined,
  addresses: string,
  kind: WorkloadKind,
): ManifestChange {
  const field = workloadKind(kind).strategyAt.field;
  const current = manifestStrategy(deployment, owner, field);
  const lines = [' spec:'];
  if (current !== null && current !== undefined) {
    lines.push(`-  ${field}:`, ...yamlLines(current, '    ').map((l) => `-${l}`));
  }
  lines.push(`+  ${field}:`, ...FIXED_STRATEGY.map((l) => `+    ${l}`));
  const notes = [workloadKind(kind).surgeFix === 'per-node' ? S.notePerNode.en() : S.noteOneAtATime.en()];
  if (current === undefined) {
    notes.push(S.noteStrategyUnread.en());
  }
  return { addresses, where: where(owner), diff: lines.join('\n'), notes };
}

interface TermWithKeys extends PodAffinityTerm {
  matchLabelKeys?: string[];
}

function selfRepellingTerms(deployment: WorkloadObject): number[] {
  const template = deployment.spec.template;
  const labels = template?.metadata?.labels ?? {};
  const terms = (template?.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ??
    []) as TermWithKeys[];
  return terms
    .map((term, index) => ({ term, index }))
    .filter(
      ({ term }) =>
        term.labelSelector !== undefined &&
        matchesLabelSelector(labels, term.labelSelector) &&
        !(term.matchLabelKeys ?? []).includes(HASH_LABEL),
    )
    .map(({ index }) => index);
}

function matchLabelKeysChange(
  deployment: WorkloadObject,
  owner: ManagedBy | undefined,
  addresses: string,
  indexes: number[],
): ManifestChange {
  const terms = (deployment.spec.template?.spec.affinity?.podAntiAffinity
    ?.requiredDuringSchedulingIgnoredDuringExecution ?? []) as TermWithKeys[];
  const lines = [
    ' spec:',
    '   template:',
    '     spec:',
    '       affinity:',
    '         podAntiAffinity:',
    '           requiredDuringSchedulingIgnoredDuringExecution:',
  ];
  terms.forEach((term, index) => {
    lines.push(`           - topologyKey: ${term.topologyKey}`);
    if (!indexes.includes(index)) return;
    const keys = term.matchLabelKeys ?? [];
    if (keys.length > 0)
      lines.push('             matchLabelKeys:', ...keys.map((k) => `             - ${k}`));
    else lines.push('+            matchLabelKeys:');
    lines.push(`+            - ${HASH_LABEL}`);
  });
  return {
    addresses,
    where: where(owner),
    diff: lines.join('\n'),
    notes: [S.noteMatchLabelKeysVersion.en(), S.noteMatchLabelKeysLater.en()],
  };
}

/** An Argo Rollout's basic canary: maxSurge 0 / maxUnavailable 1 on spec.strategy.canary, its steps untouched. */
function canaryChange(
  rollout: WorkloadObject,
  owner: ManagedBy | undefined,
  addresses: string,
): ManifestChange {
  const current = manifestStrategy(rollout, owner, 'strategy');
  const canary = isRecord(current) && isRecord(current.canary) ? current.canary : {};
  const lines = [' spec:', '   strategy:', '     canary:'];
  for (const key of ['maxSurge', 'maxUnavailable'])
    if (canary[key] !== undefined) lines.push(...yamlLines({ [key]: canary[key] }, '-      '));
  lines.push('+      maxSurge: 0', '+      maxUnavailable: 1');
  const notes = [S.noteCanaryOneAtATime.en()];
  if (current === undefined) {
    notes.push(S.noteCanaryUnread.en());
  }
  return { addresses, where: where(owner), diff: lines.join('\n'), notes };
}

/** The plan kinds that change a workload's strategy: their proof is the strategy change's. */
const STRATEGY_PLANS: ReadonlySet<string> = new Set(['set-rolling-update', 'set-recreate']);

/**
 * The manifest changes that make a surge deadlock's fix permanent, for each surge
 * deadlock or rollout-at-risk finding (one set, since both ask for the same change).
 * The strategy lines only where a strategy plan was proved for that finding (`planKind`
 * names each offered plan's kind): a finding that letting old pods go first does not
 * mend (a volume pinned to a cordoned node, a paused rollout no order helps, a kind
 * without surge such as a StatefulSet) gets no strategy to commit.
 */
export function buildManifestChanges(
  deployment: WorkloadObject,
  findings: readonly Pick<Finding, 'code' | 'remediations'>[],
  owner: ManagedBy | undefined,
  kind: WorkloadKind,
  planKind: (planId: string) => string | undefined,
): ManifestChange[] {
  const surge = findings.filter((f) => f.code === 'RolloutSurgeDeadlock' || f.code === 'RolloutAtRisk');
  const finding = surge[0];
  if (!finding) return [];
  const module = workloadKind(kind);
  const proved = surge.find((f) => f.remediations.some((id) => STRATEGY_PLANS.has(planKind(id) ?? '')));
  if (module.surgeFix === 'canary') {
    // Only the basic canary has bounds to change; blue-green and traffic routing keep every stable pod.
    return proved && module.strategy(deployment).argo === 'canary'
      ? [canaryChange(deployment, owner, proved.code)]
      : [];
  }
  const changes = proved ? [strategyChange(deployment, owner, proved.code, kind)] : [];
  // pod-template-hash is a Deployment's label: a DaemonSet's pods carry controller-revision-hash.
  const terms = module.revisionLabel === HASH_LABEL ? selfRepellingTerms(deployment) : [];
  if (terms.length > 0) changes.push(matchLabelKeysChange(deployment, owner, finding.code, terms));
  return changes;
}
