/**
 * exclude-node: keep a Deployment's pods off the node(s) where they crash-loop with a
 * required node affinity `kubernetes.io/hostname NotIn [...]`, merged into every
 * existing required term so nothing the user set is lost.
 *
 * Patch choice: always an RFC 6902 JSON patch on the Deployment, so the write is
 * conditional on the server:
 * - `test /metadata/generation` = the generation diagnosed (any spec change since
 *   bumps it, so a concurrent edit makes the patch fail instead of being overwritten);
 * - with an affinity: `test` on the current `/spec/template/spec/affinity`, then
 *   `replace` with the complete merged affinity;
 * - without one: `add` of the new affinity. JSON patch cannot test for absence, and a
 *   strategic merge patch would silently merge into an affinity added meanwhile; the
 *   generation test covers that case instead.
 *
 * Which nodes: when a node label separates the crashing nodes from the healthy ones
 * (crash-distribution.ts) and more than one node crashes, the exclusion is `label
 * NotIn [values]`, which also keeps the pods off nodes of that kind added later;
 * otherwise the hostnames of the crashing nodes. Never by label on a DaemonSet or a
 * Recreate Deployment (the admission policy denies it: exclusion-bound.ts), where
 * more than MAX_EXCLUDED_NODES crashing nodes then get no plan.
 *
 * Safety: no plan unless a healthy pod of the same template runs on a node that stays
 * eligible, every excluded node is known (with its hostname label when excluded by
 * hostname), at least one known node stays eligible (a nodeSelector pinned to the
 * bad node gets no plan), and the nodes that stay eligible have room, counting other
 * workloads' pods, for at least as many pods as serve now (exclude-node-room.ts; a
 * refusal needs every node listed and every remaining node's pods read); fewer than
 * the replicas, or room that was not read, is a warning naming what was not read.
 */
import { templateChangeEn, warningsFrom, withImpact, type PlanSaid } from '../plan-words.js';
import { daemonImpactEn } from '../exclusion-plan-words.js';
import type { NodeAgent, PlanParams } from '../plan-said.js';
import { DEFAULT_EXCLUSION_TTL, UNTIL_REMOVED, type ExclusionTtl } from '../exclusion-ttl.js';
import { crashPictures, type TemplateCrashPicture } from '../../diagnosis/crash/crash-distribution.js';
import type { Finding } from '../../diagnosis/finding.js';
import type { Affinity, Node, PodSpec } from '../../diagnosis/k8s.js';
import { isEligible, selectsNode } from '../../diagnosis/base/node-match.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import type { CoverageGap, WorkloadSnapshot } from '../../diagnosis/snapshot/types.js';
import { excludeLabelValues, HOSTNAME_LABEL } from '../affinity-merge.js';
import { beyondExclusionBound, MAX_EXCLUDED_NODES, mayExcludeByLabel } from '../exclusion-bound.js';
import { planId } from '../plan-id.js';
import type { NotOffered, RemediationPlan } from '../plan.js';
import { roomAfterExclusion, type ExclusionRoom } from './exclude-node-room.js';
import { exclusionWrite, lastsWords } from './exclusion-record-ops.js';
import { exactLabel, sharedWarnings, type Exclusion } from './exclude-shared.js';
import { antiAffinityOnePerNode, nodeAgentOf } from './template-facts.js';
import { belowPartition, exclusionWaitsFor, pinnedByVolume } from './exclusion-waits.js';
import { podTemplateOf, workloadKind, workloadObject } from '../../diagnosis/workloads/index.js';

export const AFFINITY_PATH = '/spec/template/spec/affinity';

export type { JsonPatchOp } from '../json-pointer.js';
import { jsonEqual, type JsonPatchOp } from '../json-pointer.js';

/** Plans for a CrashLoopOnNode finding: at most one exclude-node plan covering all its bad nodes. */
export function buildExcludeNodePlans(
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
  picture = pictureOf(ctx, finding),
  notOffered?: NotOffered,
): RemediationPlan[] {
  if (!picture) return [];
  const { snapshot } = ctx;
  // A Rollout with a workloadRef takes its template from another object: this patch would not reach it.
  const kind = workloadKind(snapshot);
  const ref = kind.templateRef?.named(workloadObject(snapshot));
  if (ref) {
    notOffered?.(
      'exclude-node',
      `the ${snapshot.target.kind} takes its pod template from ${ref.kind ?? 'another object'} ${ref.name ?? ''} (workloadRef): exclude the node there`,
    );
    return [];
  }
  const badNodes = picture.badNodes.map((name) => snapshot.nodes.find((n) => n.metadata.name === name));
  if (badNodes.some((n) => n === undefined)) return [];
  const deployment = workloadObject(snapshot);
  const daemon = kind.pinnedToNodes;
  const byLabel = mayExcludeByLabel(daemon, kind.strategy(deployment).type);
  // Nodes the rollout has not reached that share what sets the crashing ones apart.
  const sharing = picture.sharingNodes.flatMap((name) =>
    snapshot.nodes.filter((n) => n.metadata.name === name),
  );
  const exclusion = exclusionOf(picture, [...badNodes, ...sharing], byLabel, snapshot.nodes);
  if (!exclusion) return [];
  const before = podTemplateOf(snapshot).spec.affinity;
  const after = excludeLabelValues(before, exclusion.key, exclusion.values);
  const piledUp = jsonEqual(before, after)
    ? `the pod template already keeps its pods off ${shortList(picture.badNodes)}: the pods still there run an older revision`
    : beyondExclusionBound(before, after, exclusion.key);
  if (piledUp) {
    notOffered?.('exclude-node', piledUp);
    return [];
  }
  const patchedSpec: PodSpec = { ...podTemplateOf(snapshot).spec, affinity: after };

  // Sanity: the bad nodes are really excluded and the healthy ones still allowed.
  if ([...badNodes, ...sharing].some((n) => n && selectsNode(n, patchedSpec))) return [];
  const eligibleAfter = snapshot.nodes.filter((n) => isEligible(n, patchedSpec));
  const healthyStays = picture.healthyPods.some((p) =>
    eligibleAfter.some((n) => n.metadata.name === p.spec.nodeName),
  );
  if (eligibleAfter.length === 0 || !healthyStays) return [];
  const pinned = pinnedWords(snapshot, picture, eligibleAfter);
  if (pinned) {
    notOffered?.('exclude-node', pinned);
    return [];
  }

  // Capacity: the remaining nodes must hold at least as many pods as serve now.
  const replicas = kind.desiredReplicas(deployment);
  const room = roomAfterExclusion(ctx, patchedSpec, eligibleAfter, replicas);
  const serving = Math.min(picture.healthyPods.length, replicas);
  // Refused only on full knowledge: every node the template may use listed, and the pods
  // on each that stays eligible read. Otherwise the shortfall is a warning.
  // A DaemonSet runs one pod per node it selects: excluding nodes takes no room from the others.
  if (!daemon && snapshot.nodesComplete && room.unknownNodes.length === 0 && room.fits < serving) return [];

  const eligibleBefore = snapshot.nodes.filter((n) => isEligible(n, podTemplateOf(snapshot).spec));
  const generation = deployment.metadata.generation ?? 0;
  const uid = deployment.metadata.uid ?? '';
  // The record beside the affinity, in the same write (exclusion-record.ts): on the
  // workload's metadata, never the template's (that would be one more template change).
  const ttl = ctx.settings.exclusionTtl;
  const write = exclusionWrite(snapshot, deployment.metadata.annotations, {
    before,
    exclusion,
    nodes: [...badNodes, ...sharing].flatMap((n) => (n ? [n] : [])),
    picture,
    finding: finding.code,
    ttl,
  });
  const patch = [...forwardPatch(generation, before, after), ...write.ops];
  const carried = write.warnings;
  const warned = warningsFrom(
    daemon
      ? [...carried, ...sharedWarnings(picture, exclusion), ...daemonSetWarnings(snapshot, picture)]
      : [
          ...carried,
          ...sharedWarnings(picture, exclusion),
          ...statefulSetWarnings(snapshot, picture),
          ...crowding(snapshot, patchedSpec, eligibleAfter, replicas),
          ...unreadWarnings(snapshot),
          ...rolloutWarnings(snapshot),
          ...roomWarnings(room, replicas, snapshot),
        ],
  );
  const eligible = { before: eligibleBefore, after: eligibleAfter };
  return [
    {
      id: planId('exclude-node', uid, generation, patch),
      kind: 'exclude-node',
      target: snapshot.target,
      summary: exclusionSummary(snapshot.target.name, picture, exclusion, sharing.length),
      // How long it lasts is part of what the approver reads and the seal covers.
      ...(daemon
        ? daemonSetImpact(snapshot, picture, eligible, ttl)
        : {
            impact: `${impactText(snapshot, picture, eligibleBefore, eligibleAfter, replicas, exclusion)} ${lastsWords(ttl)}`,
            ...(snapshot.nodesComplete
              ? { impactSaid: exclusionImpact(snapshot, picture, eligible, replicas, exclusion, ttl) }
              : {}),
          }),
      ...warned,
      patch: { type: 'json', body: patch },
      preconditions: { uid, generation, fields: [{ path: AFFINITY_PATH, value: before }] },
      inverse: {
        type: 'json',
        body: [...inversePatch(before, after), ...write.undo],
      },
      addresses: finding.code,
    },
  ];
}

/**
 * Why the exclusion is not offered where it cannot reach a crashing pod: its volume holds
 * it to an excluded node (Pending for good, VolumeBinding), or it is below the partition.
 */
function pinnedWords(
  snapshot: WorkloadSnapshot,
  picture: TemplateCrashPicture,
  left: Node[],
): string | undefined {
  const pinned = pinnedByVolume(snapshot, picture, left);
  if (pinned)
    return `${pinned.pod} mounts volume ${pinned.volume}, which no node left after the exclusion may use: its replacement would stay Pending for good (volume node affinity conflict); repair ${shortList(picture.badNodes)} or move its data first`;
  const held = belowPartition(snapshot, picture);
  return held
    ? `${held} is below the StatefulSet's partition, where the controller keeps the current revision and makes a deleted pod again from it: the exclusion would never reach it; lower the partition with it, or repair ${shortList(picture.badNodes)}`
    : undefined;
}

/** "Keep web off node-05 (required node affinity … NotIn)", or off the nodes with a label. */
function exclusionSummary(
  name: string,
  picture: TemplateCrashPicture,
  exclusion: Exclusion,
  sharing: number,
): string {
  return exclusion.key !== HOSTNAME_LABEL
    ? `Keep ${name} off the nodes with ${exclusion.key}=${exclusion.values.join(' or ')} ` +
        `(${picture.badNodes.length} crashing: ${shortList(picture.badNodes)}; required node affinity ${exclusion.key} NotIn).`
    : `Keep ${name} off ${[...picture.badNodes, ...picture.sharingNodes].join(', ')} (required node affinity ${HOSTNAME_LABEL} NotIn${sharing > 0 ? `; ${shortList(picture.sharingNodes)} share${sharing === 1 ? 's' : ''} what sets the crashing node${picture.badNodes.length === 1 ? '' : 's'} apart` : ''}).`;
}

/** The node-local crash picture the finding is about (matched on its node-diff bad nodes). */
export function pictureOf(
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
): TemplateCrashPicture | undefined {
  const diff = finding.evidence.find((e) => e.type === 'node-diff');
  const wanted = diff?.type === 'node-diff' ? [...diff.badNodes].sort().join(',') : undefined;
  return crashPictures(ctx).find(
    (p) =>
      p.nodeLocal &&
      p.healthyPods.length > 0 &&
      (wanted === undefined || [...p.badNodes].sort().join(',') === wanted),
  );
}

/**
 * By the separating label when it reads better than hostnames (more than one
 * crashing node) and the admission policy admits it on this workload (`byLabel`, at
 * most MAX_EXCLUDED_NODES values: exclusion-bound.ts), else by hostname (every
 * crashing node needs the label; the bound on names then decides). `badNodes` holds the
 * nodes that share what sets the crashing ones apart too: a label that selects exactly
 * them among the nodes read comes first (exclude-shared.ts).
 */
function exclusionOf(
  picture: TemplateCrashPicture,
  badNodes: (Node | undefined)[],
  byLabel: boolean,
  known: readonly Node[],
): Exclusion | undefined {
  const all = badNodes.flatMap((n) => (n ? [n] : []));
  if (byLabel && picture.sharingNodes.length > 0) {
    const exact = exactLabel(all, known, picture.separator?.label?.key);
    if (exact) return exact;
  }
  const label = picture.separator?.label;
  if (
    byLabel &&
    label &&
    picture.badNodes.length > 1 &&
    label.key !== HOSTNAME_LABEL &&
    label.values.length <= MAX_EXCLUDED_NODES &&
    all.every((n) => label.values.includes(n.metadata.labels?.[label.key] ?? '\u0000')) &&
    // A value one crashing node holds proves no group: it may not take out other nodes
    // read that carry it (crash-distribution.ts groupOf).
    label.values.every(
      (v) =>
        all.filter(
          (n) => picture.badNodes.includes(n.metadata.name ?? '') && n.metadata.labels?.[label.key] === v,
        ).length >= 2 || known.every((n) => n.metadata.labels?.[label.key] !== v || all.includes(n)),
    )
  ) {
    return { key: label.key, values: [...label.values] };
  }
  const hostnames = badNodes.map((n) => n?.metadata.labels?.[HOSTNAME_LABEL]);
  if (hostnames.some((h) => h === undefined)) return undefined;
  return { key: HOSTNAME_LABEL, values: hostnames.flatMap((h) => (h === undefined ? [] : [h])) };
}

function shortList(names: readonly string[]): string {
  return names.length <= 5
    ? names.join(', ')
    : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

/**
 * The room left after the exclusion, in what was read: nothing when the nodes read
 * hold every replica; never a count from nodes whose pods were not read (their room
 * is unknown, not zero: DESIGN.md §2).
 */
function roomWarnings(room: ExclusionRoom, replicas: number, snapshot: WorkloadSnapshot): PlanSaid[] {
  if (room.fits >= replicas) return [];
  const unread = room.unknownNodes;
  if (room.readNodes.length === 0)
    return [{ key: 'roomNoneRead', params: { replicas, ...unreadParams(unread, snapshot) } }];
  const read = { nodes: shortList(room.readNodes), read: room.readNodes.length, fits: room.fits, replicas };
  if (unread.length > 0)
    return [{ key: 'roomPartlyRead', params: { ...read, ...unreadParams(unread, snapshot) } }];
  if (!snapshot.nodesComplete) return [{ key: 'roomOthersUnread', params: read }];
  return [{ key: 'roomShort', params: { fits: room.fits, replicas } }];
}

/**
 * What was not read on the nodes whose room is unknown, as what it is (the words in
 * exclusion-plan-words.ts): other namespaces' pods absent from a dump, nodes past the
 * cap, a refused read.
 */
function unreadParams(
  nodes: readonly string[],
  snapshot: WorkloadSnapshot,
): { unread: string; dump: boolean; forbidden: boolean; capped?: string } {
  const gap = snapshot.coverage.gaps.find((g) => g.about === 'neighbours');
  return {
    unread: shortList(nodes),
    dump: gap?.reason === 'not-in-dump',
    forbidden: gap?.reason === 'forbidden',
    ...(gap?.reason === 'capped' ? { capped: gap.what } : {}),
  };
}

function forwardPatch(generation: number, before: Affinity | undefined, after: Affinity): JsonPatchOp[] {
  const guard: JsonPatchOp = { op: 'test', path: '/metadata/generation', value: generation };
  if (before === undefined) return [guard, { op: 'add', path: AFFINITY_PATH, value: after }];
  return [
    guard,
    { op: 'test', path: AFFINITY_PATH, value: before },
    { op: 'replace', path: AFFINITY_PATH, value: after },
  ];
}

/** The affinity a plan's JSON patch writes (exclude-node's forward patch), else undefined. */
export function exclusionAffinity(plan: RemediationPlan): Affinity | undefined {
  if (plan.patch?.type !== 'json') return undefined;
  const ops = plan.patch.body as JsonPatchOp[];
  const write = ops.find((op) => op.path === AFFINITY_PATH && (op.op === 'add' || op.op === 'replace'));
  return write?.value as Affinity | undefined;
}

/** Restores the previous affinity exactly, and only if nobody changed it since. */
function inversePatch(before: Affinity | undefined, after: Affinity): JsonPatchOp[] {
  const guard: JsonPatchOp = { op: 'test', path: AFFINITY_PATH, value: after };
  if (before === undefined) return [guard, { op: 'remove', path: AFFINITY_PATH }];
  return [guard, { op: 'replace', path: AFFINITY_PATH, value: before }];
}

/**
 * A DaemonSet's exclusion: its pods on the excluded nodes are deleted (the controller
 * no longer wants a pod there) and nothing moves elsewhere; what the node loses
 * depends on what the DaemonSet does there (template-facts.ts nodeAgentOf). Never by
 * label (exclusion-bound.ts). Worded (exclusion-plan-words.ts) where every node was
 * read; otherwise the count says which nodes it covers, in English.
 */
function daemonSetImpact(
  snapshot: WorkloadSnapshot,
  picture: TemplateCrashPicture,
  { before, after }: { before: Node[]; after: Node[] },
  ttl: ExclusionTtl | undefined,
): { impact: string; impactSaid?: PlanSaid } {
  const excluded = before.filter((n) => !after.includes(n)).map((n) => n.metadata.name ?? '');
  const lasts = ttl ?? DEFAULT_EXCLUSION_TTL;
  const params = {
    name: snapshot.target.name,
    nodes: shortList(excluded.length > 0 ? excluded : picture.badNodes),
    count: excluded.length,
    after: after.length,
    before: before.length,
    ...(lasts === UNTIL_REMOVED ? {} : { ttl: lasts }),
  };
  const agent = nodeAgentOf(podTemplateOf(snapshot).spec);
  const said: PlanSaid = { key: agent ? DAEMON_KEY[agent] : 'excludeDaemon', params };
  if (snapshot.nodesComplete) return withImpact(said);
  const { noun, note } = nodesCounted(snapshot);
  return { impact: daemonImpactEn(params, agent, `${noun} keep it${note}`) };
}

const DAEMON_KEY = {
  cni: 'excludeDaemonCni',
  csi: 'excludeDaemonCsi',
  device: 'excludeDaemonDevice',
} as const satisfies Record<NodeAgent, keyof PlanParams>;

/**
 * A StatefulSet's pod keeps its claims when it moves: a claim bound to a node-local
 * volume (a local PersistentVolume, hostPath-backed or node-attached storage, a zonal
 * disk) holds the pod on that node or zone, so the exclusion leaves it Pending there.
 */
function statefulSetWarnings(snapshot: WorkloadSnapshot, picture: TemplateCrashPicture): PlanSaid[] {
  const templates = workloadKind(snapshot).claimTemplates(workloadObject(snapshot));
  if (templates.length === 0) return [];
  const pods = picture.crashingPods
    .filter((p) => picture.badNodes.includes(p.spec.nodeName ?? ''))
    .map((p) => p.metadata.name ?? '');
  const claims = pods.flatMap((pod) => templates.map((t) => `${t}-${pod}`));
  return [
    {
      key: 'statefulClaims',
      params: {
        claims: claims.slice(0, 4).join(', '),
        more: claims.length > 4,
        nodes: shortList(picture.badNodes),
        command:
          'kubectl get pv -o custom-columns=NAME:.metadata.name,CLAIM:.spec.claimRef.name,NODE:.spec.nodeAffinity',
      },
    },
  ];
}

function daemonSetWarnings(snapshot: WorkloadSnapshot, picture: TemplateCrashPicture): (string | PlanSaid)[] {
  return [
    { key: 'daemonDeleted', params: { nodes: shortList(picture.badNodes) } },
    ...unreadWarnings(snapshot),
  ];
}

/** impactText's words where every node was read (plan-words.ts): by hostname, or by a label the crashing nodes share. */
function exclusionImpact(
  snapshot: WorkloadSnapshot,
  picture: TemplateCrashPicture,
  { before, after }: { before: Node[]; after: Node[] },
  replicas: number,
  exclusion: Exclusion,
  ttl: ExclusionTtl | undefined,
): PlanSaid {
  const lasts = ttl ?? DEFAULT_EXCLUSION_TTL;
  const params = {
    after: after.length,
    before: before.length,
    eligible: shortList(after.map((n) => n.metadata.name ?? '')),
    excluded: shortList(picture.badNodes),
    ...templateChange(snapshot, picture, replicas),
    ...(lasts === UNTIL_REMOVED ? {} : { ttl: lasts }),
  };
  if (exclusion.key === HOSTNAME_LABEL) return { key: 'excludeHost', params };
  const others = excludedElsewhere(picture, before, after);
  return {
    key: 'excludeLabel',
    params: {
      ...params,
      label: exclusion.key,
      values: exclusion.values,
      ...(others.length > 0 ? { others: shortList(others) } : {}),
    },
  };
}

/** Nodes an exclusion takes out where no pod of this template crashes. */
function excludedElsewhere(picture: TemplateCrashPicture, before: Node[], after: Node[]): string[] {
  return before
    .filter((n) => !after.includes(n))
    .map((n) => n.metadata.name ?? '')
    .filter((n) => !picture.badNodes.includes(n));
}

function impactText(
  snapshot: WorkloadSnapshot,
  picture: TemplateCrashPicture,
  before: Node[],
  after: Node[],
  replicas: number,
  exclusion: Exclusion,
): string {
  const { noun, note } = nodesCounted(snapshot);
  const others = excludedElsewhere(picture, before, after);
  const byLabel =
    exclusion.key === HOSTNAME_LABEL
      ? ''
      : ` Every node with ${exclusion.key}=${exclusion.values.join(' or ')} is excluded, now and later` +
        (others.length > 0
          ? `, including ${shortList(others)} where no pod of this template runs yet.`
          : '.');
  return (
    `${after.length} of ${before.length} ${noun} stay eligible${note}: ` +
    `${shortList(after.map((n) => n.metadata.name ?? ''))}; ${shortList(picture.badNodes)} excluded.${byLabel} ` +
    `${templateChangeEn(templateChange(snapshot, picture, replicas))} ` +
    'Remove the exclusion once the node is repaired (undo restores the previous affinity).'
  );
}

/** What changing the template does to the pods: the strategy, and the pods it waits for (exclusion-waits.ts). */
function templateChange(
  snapshot: WorkloadSnapshot,
  picture: TemplateCrashPicture,
  replicas: number,
): Pick<PlanParams['excludeHost'], 'strategy' | 'replicas' | 'waits' | 'waitsOne' | 'onDelete'> {
  const kind = workloadKind(snapshot);
  const strategy = kind.strategy(kind.object(snapshot)).type;
  const waits = exclusionWaitsFor(snapshot, picture);
  if (!waits) return { strategy, replicas };
  const names = waits.pods.map((p) => p.metadata.name ?? '');
  return {
    strategy,
    replicas,
    waits: shortList(names),
    waitsOne: names.length === 1,
    ...(waits.onDelete ? { onDelete: true } : {}),
  };
}

/** What the nodes left mean for the replicas, in words (plan-words.ts). */
function crowding(snapshot: WorkloadSnapshot, spec: PodSpec, eligible: Node[], replicas: number): PlanSaid[] {
  const onePerNode = antiAffinityOnePerNode(spec, podTemplateOf(snapshot).metadata?.labels ?? {});
  const counts = { eligible: eligible.length, replicas };
  if (onePerNode && replicas > eligible.length) return [{ key: 'antiOnePending', params: counts }];
  if (onePerNode && replicas === eligible.length && surges(snapshot))
    return [{ key: 'antiOneSurge', params: counts }];
  if (eligible.length === 1 && replicas > 1)
    return [{ key: 'oneNodeLeft', params: { node: eligible[0]?.metadata.name ?? '', replicas } }];
  return [];
}

/** The nodes not read, when some were not: the counts cover only those read. */
function unreadWarnings(snapshot: WorkloadSnapshot): string[] {
  const list: string[] = [];
  const gap = nodesGap(snapshot);
  if (gap) {
    list.push(
      `Not read: ${gap.what} (${GAP_REASON[gap.reason]}). Eligibility counts cover only the nodes read.`,
    );
  }
  return list;
}

/** The workload's controller starts new pods before old ones go (its kind module resolves the strategy). */
function surges(snapshot: WorkloadSnapshot): boolean {
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const strategy = kind.strategy(object);
  return (
    strategy.type === 'RollingUpdate' &&
    (strategy.maxSurge?.value ?? 0) > 0 &&
    kind.desiredReplicas(object) > 0
  );
}

/**
 * An Argo Rollout: the template change is a new update, which goes through the canary
 * steps (or the blue-green preview and promotion) like any release.
 */
function rolloutWarnings(snapshot: WorkloadSnapshot): string[] {
  const note = workloadKind(snapshot).words.templateChange;
  return note ? [note] : [];
}

const GAP_REASON: Record<CoverageGap['reason'], string> = {
  capped: 'past the cap on listed nodes',
  forbidden: 'forbidden',
  failed: 'the read failed',
  'not-in-dump': 'not in the dump',
  'not-served': 'not served by this cluster',
  'not-found': 'not found',
};

/** Why the node list is incomplete, when a read was refused, failed or capped. */
function nodesGap(snapshot: WorkloadSnapshot): CoverageGap | undefined {
  if (snapshot.nodesComplete) return undefined;
  return snapshot.coverage.gaps.find((g) => g.about === 'nodes');
}

/**
 * The nodes an eligibility count covers ("N of M eligible node(s)"), saying which when
 * not every node the template may use was read: those its pods run on (a template that
 * may go anywhere and nothing Pending: the cluster's nodes are not listed), or what a
 * refused, failed or capped read left (`note`, after the verb).
 */
function nodesCounted(snapshot: WorkloadSnapshot): { noun: string; note: string } {
  if (snapshot.nodesComplete) return { noun: 'eligible node(s)', note: '' };
  const gap = nodesGap(snapshot);
  if (!gap) {
    return {
      noun: 'node(s) its pods run on',
      note: " (the template may use any node; the cluster's other nodes were not read)",
    };
  }
  return { noun: 'eligible node(s) read', note: ` (not read: ${gap.what}, ${GAP_REASON[gap.reason]})` };
}
