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
import { warningsFrom, type PlanSaid } from '../plan-words.js';
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
import { exclusionRecord, lastsWords, recordOps, recordUndoOps } from './exclusion-record-ops.js';
import { exactLabel, sharedWarnings, type Exclusion } from './exclude-shared.js';
import { antiAffinityOnePerNode, nodeAgentRole } from './template-facts.js';
import { podTemplateOf, workloadKind, workloadObject } from '../../diagnosis/workloads/index.js';

export const AFFINITY_PATH = '/spec/template/spec/affinity';

export type { JsonPatchOp } from '../json-pointer.js';
import type { JsonPatchOp } from '../json-pointer.js';

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
  const piledUp = beyondExclusionBound(before, after, exclusion.key);
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
  const annotations = deployment.metadata.annotations;
  const record = exclusionRecord({
    before,
    exclusion,
    nodes: [...badNodes, ...sharing].flatMap((n) => (n ? [n] : [])),
    picture,
    finding: finding.code,
    annotations,
    ttl: ctx.settings.exclusionTtl,
  });
  const patch = [...forwardPatch(generation, before, after), ...recordOps(record, annotations)];
  const crowded = warningsFrom(daemon ? [] : crowding(snapshot, patchedSpec, eligibleAfter, replicas));
  return [
    {
      id: planId('exclude-node', uid, generation, patch),
      kind: 'exclude-node',
      target: snapshot.target,
      summary: exclusionSummary(snapshot.target.name, picture, exclusion, sharing.length),
      // How long it lasts is part of what the approver reads and the seal covers.
      impact: `${
        daemon
          ? daemonSetImpact(snapshot, picture, eligibleBefore, eligibleAfter, exclusion)
          : impactText(snapshot, picture, eligibleBefore, eligibleAfter, replicas, exclusion)
      } ${lastsWords(ctx.settings.exclusionTtl)}`,
      ...(daemon || !snapshot.nodesComplete
        ? {}
        : {
            impactSaid: exclusionImpact(
              snapshot,
              picture,
              { before: eligibleBefore, after: eligibleAfter },
              replicas,
              exclusion,
              ctx.settings.exclusionTtl,
            ),
          }),
      warnings: daemon
        ? [...sharedWarnings(picture, exclusion), ...daemonSetWarnings(snapshot, picture)]
        : [
            ...sharedWarnings(picture, exclusion),
            ...statefulSetWarnings(snapshot, picture),
            ...crowded.warnings,
            ...unreadWarnings(snapshot),
            ...rolloutWarnings(snapshot),
            ...roomWarnings(room, replicas, snapshot),
          ],
      ...(crowded.warningsSaid ? { warningsSaid: crowded.warningsSaid } : {}),
      patch: { type: 'json', body: patch },
      preconditions: { uid, generation, fields: [{ path: AFFINITY_PATH, value: before }] },
      inverse: {
        type: 'json',
        body: [...inversePatch(before, after), ...recordUndoOps(record, annotations)],
      },
      addresses: finding.code,
    },
  ];
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
function roomWarnings(room: ExclusionRoom, replicas: number, snapshot: WorkloadSnapshot): string[] {
  if (room.fits >= replicas) return [];
  const unread = room.unknownNodes;
  if (room.readNodes.length === 0) {
    const words = unreadWords(unread, snapshot);
    return [
      `${words.charAt(0).toUpperCase()}${words.slice(1)}: whether the ${replicas} replica(s) fit there after the exclusion is unknown.`,
    ];
  }
  const counted = `other workloads' requests counted`;
  if (unread.length > 0) {
    return [
      `After the exclusion ${shortList(room.readNodes)} ha${room.readNodes.length === 1 ? 's' : 've'} room for ${room.fits} of ${replicas} replica(s) (${counted}); ` +
        `${unreadWords(unread, snapshot)}, so the room there is unknown.`,
    ];
  }
  if (!snapshot.nodesComplete) {
    return [
      `After the exclusion ${shortList(room.readNodes)} ha${room.readNodes.length === 1 ? 's' : 've'} room for ${room.fits} of ${replicas} replica(s) (${counted}); ` +
        `other nodes the template may use were not read, so the other ${replicas - room.fits} may fit there or stay Pending.`,
    ];
  }
  return [
    `After the exclusion the nodes that stay eligible have room for ${room.fits} of ${replicas} replica(s) (${counted}): ` +
      `${replicas - room.fits} will stay Pending until nodes are added.`,
  ];
}

/**
 * What was not read on the nodes whose room is unknown, worded as what it is: other
 * namespaces' pods absent from a dump, nodes past the cap, a refused read.
 */
function unreadWords(nodes: readonly string[], snapshot: WorkloadSnapshot): string {
  const gap = snapshot.coverage.gaps.find((g) => g.about === 'neighbours');
  if (gap?.reason === 'not-in-dump')
    return `other namespaces' pods on ${shortList(nodes)} are not in the dump`;
  if (gap?.reason === 'capped')
    return `the pods on ${shortList(nodes)} were not read (${gap.what}, past the cap)`;
  if (gap?.reason === 'forbidden') return `the pods on ${shortList(nodes)} could not be read (forbidden)`;
  return `the pods on ${shortList(nodes)} were not read`;
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

/** Restores the previous affinity exactly, and only if nobody changed it since. */
function inversePatch(before: Affinity | undefined, after: Affinity): JsonPatchOp[] {
  const guard: JsonPatchOp = { op: 'test', path: AFFINITY_PATH, value: after };
  if (before === undefined) return [guard, { op: 'remove', path: AFFINITY_PATH }];
  return [guard, { op: 'replace', path: AFFINITY_PATH, value: before }];
}

/**
 * A DaemonSet's exclusion: its pods on the excluded nodes are deleted (the controller
 * no longer wants a pod there) and nothing moves elsewhere; what the node loses
 * depends on what the DaemonSet does there (template-facts.ts nodeAgentRole).
 */
function daemonSetImpact(
  snapshot: WorkloadSnapshot,
  picture: TemplateCrashPicture,
  before: Node[],
  after: Node[],
  exclusion: Exclusion,
): string {
  const excluded = before.filter((n) => !after.includes(n)).map((n) => n.metadata.name ?? '');
  const byLabel =
    exclusion.key === HOSTNAME_LABEL
      ? ''
      : ` Every node with ${exclusion.key}=${exclusion.values.join(' or ')} is excluded, now and later.`;
  const role = nodeAgentRole(podTemplateOf(snapshot).spec);
  return (
    `${snapshot.target.name} stops running on ${shortList(excluded.length > 0 ? excluded : picture.badNodes)}: the DaemonSet controller deletes its pod${excluded.length === 1 ? '' : 's'} there and starts none elsewhere; ` +
    `${after.length} of ${before.length} ${nodesReadNote(snapshot)} keep it.${byLabel} ` +
    (role
      ? `Losing it matters: ${role}. Cordon or repair the excluded node${excluded.length === 1 ? '' : 's'} rather than leave ${excluded.length === 1 ? 'it' : 'them'} serving without it. `
      : 'Whatever it does on those nodes (logs, metrics, a node service) stops there until the exclusion is removed. ') +
    'Changing the pod template also starts a rolling update that replaces its pod on every other node. Remove the exclusion once the node is repaired (undo restores the previous affinity).'
  );
}

/**
 * A StatefulSet's pod keeps its claims when it moves: a claim bound to a node-local
 * volume (a local PersistentVolume, hostPath-backed or node-attached storage, a zonal
 * disk) holds the pod on that node or zone, so the exclusion leaves it Pending there.
 */
function statefulSetWarnings(snapshot: WorkloadSnapshot, picture: TemplateCrashPicture): string[] {
  const templates = workloadKind(snapshot).claimTemplates(workloadObject(snapshot));
  if (templates.length === 0) return [];
  const pods = picture.crashingPods
    .filter((p) => picture.badNodes.includes(p.spec.nodeName ?? ''))
    .map((p) => p.metadata.name ?? '');
  const claims = pods.flatMap((pod) => templates.map((t) => `${t}-${pod}`));
  return [
    `The pods of a StatefulSet keep their claims (${claims.slice(0, 4).join(', ')}${claims.length > 4 ? ', …' : ''}) when they move: a claim bound to a node-local volume (a local PersistentVolume, node-attached storage, a disk of another zone) holds its pod to ${shortList(picture.badNodes)}, so after the exclusion that pod stays Pending until its data moves. Check the PersistentVolumes' nodeAffinity first (kubectl get pv -o custom-columns=NAME:.metadata.name,CLAIM:.spec.claimRef.name,NODE:.spec.nodeAffinity).`,
  ];
}

function daemonSetWarnings(snapshot: WorkloadSnapshot, picture: TemplateCrashPicture): string[] {
  const gap = nodesGap(snapshot);
  const list = [
    `The pods on ${shortList(picture.badNodes)} are deleted, not moved: a DaemonSet runs exactly one pod per node it selects.`,
  ];
  if (gap)
    list.push(
      `Not read: ${gap.what} (${GAP_REASON[gap.reason]}). Eligibility counts cover only the nodes read.`,
    );
  return list;
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
  const kind = workloadKind(snapshot);
  const lasts = ttl ?? DEFAULT_EXCLUSION_TTL;
  const params = {
    after: after.length,
    before: before.length,
    eligible: shortList(after.map((n) => n.metadata.name ?? '')),
    excluded: shortList(picture.badNodes),
    strategy: kind.strategy(kind.object(snapshot)).type,
    replicas,
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
  const known = nodesReadNote(snapshot);
  const kind = workloadKind(snapshot);
  const strategy = kind.strategy(kind.object(snapshot)).type;
  const others = excludedElsewhere(picture, before, after);
  const byLabel =
    exclusion.key === HOSTNAME_LABEL
      ? ''
      : ` Every node with ${exclusion.key}=${exclusion.values.join(' or ')} is excluded, now and later` +
        (others.length > 0
          ? `, including ${shortList(others)} where no pod of this template runs yet.`
          : '.');
  return (
    `${after.length} of ${before.length} ${known}: ` +
    `${shortList(after.map((n) => n.metadata.name ?? ''))}; ${shortList(picture.badNodes)} excluded.${byLabel} ` +
    `Changing the pod template starts a new rollout (${strategy}) that replaces every pod, ${replicas} replica(s), ` +
    'the healthy ones included. Remove the exclusion once the node is repaired (undo restores the previous affinity).'
  );
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
 * "M eligible node(s) stay eligible" for "N of M", saying which nodes the count covers
 * when not every node the template may use was read: those its pods run on (a template
 * that may go anywhere and nothing Pending: the cluster's nodes are not listed), or
 * what a refused, failed or capped read left.
 */
function nodesReadNote(snapshot: WorkloadSnapshot): string {
  if (snapshot.nodesComplete) return 'eligible node(s) stay eligible';
  const gap = nodesGap(snapshot);
  if (!gap) {
    return "node(s) its pods run on stay eligible (the template may use any node; the cluster's other nodes were not read)";
  }
  return `eligible node(s) read stay eligible (not read: ${gap.what}, ${GAP_REASON[gap.reason]})`;
}
