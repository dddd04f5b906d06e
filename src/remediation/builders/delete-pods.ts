/**
 * delete-pods: delete the pods crash-looping on the bad node(s) so their controller
 * replaces them (the kind's module says how: remadeBy). No patch; each pod is named with the uid seen at diagnosis so the
 * executor deletes exactly that pod (a delete precondition on uid), never a
 * replacement that took the same name.
 */
import { warningsFrom, withImpact } from '../plan-words.js';
import type { Finding } from '../../diagnosis/finding.js';
import { isEligible, selectsNode } from '../../diagnosis/base/node-match.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import { imageWords } from '../../diagnosis/rollout/image-words.js';
import { planId } from '../plan-id.js';
import type { NotOffered, RemediationPlan } from '../plan.js';
import { replacementPlace } from '../../diagnosis/placement/replacement.js';
import { AFFINITY_PATH, buildExcludeNodePlans, exclusionAffinity, pictureOf } from './exclude-node.js';
import { exclusionWaitsFor, pinnedByVolume } from './exclusion-waits.js';
import { podTemplateOf, workloadKind, workloadObject } from '../../diagnosis/workloads/index.js';

/** The impact's words by how the kind makes the deleted pods again. */
const DELETE_KEY = {
  replicaSet: 'deleteCrashing',
  rolloutReplicaSet: 'deleteCrashingRollout',
  orderedReady: 'deleteCrashingOrdered',
  parallel: 'deleteCrashingParallel',
} as const;

export function buildDeletePodsPlans(
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
  notOffered?: NotOffered,
  picture = pictureOf(ctx, finding),
): RemediationPlan[] {
  if (!picture) return [];
  const { snapshot } = ctx;
  // A pod its volume holds to the bad nodes comes back there, to the same crash.
  const good = snapshot.nodes.filter((n) => !picture.badNodes.includes(n.metadata.name ?? ''));
  const pinned = pinnedByVolume(snapshot, picture, good);
  if (pinned) {
    notOffered?.(
      'delete-pods',
      `${pinned.pod} mounts volume ${pinned.volume}, which only the crashing nodes may use: its replacement comes back there, to the same crash`,
    );
    return [];
  }
  const object = workloadObject(snapshot);
  // A replacement made for the same node (a DaemonSet's pod is pinned there) only restarts
  // the same crash: the node exclusion is the way out.
  const remadeBy = workloadKind(snapshot).remadeBy(object);
  if (remadeBy === 'sameNode') return [];
  const pods = picture.crashingPods
    .filter((p) => picture.badNodes.includes(p.spec.nodeName ?? ''))
    .map((p) => ({ name: p.metadata.name ?? '', uid: p.metadata.uid ?? '' }))
    .filter((p) => p.name !== '' && p.uid !== '')
    .sort((a, b) => a.name.localeCompare(b.name));
  if (pods.length === 0) return [];
  const uid = object.metadata.uid ?? '';
  const generation = object.metadata.generation ?? 0;
  const elsewhere = snapshot.nodes.filter(
    (n) => !picture.badNodes.includes(n.metadata.name ?? '') && isEligible(n, podTemplateOf(snapshot).spec),
  );
  const worded = warningsFrom(
    elsewhere.length === 0 ? [{ key: 'noOtherNode', params: { nodes: picture.badNodes.join(', ') } }] : [],
  );
  const nodes = picture.badNodes.join(', ');
  const summary = `Delete ${pods.length} crash-looping pod(s) on ${nodes}: ${pods.map((p) => p.name).join(', ')}`;
  const plan = {
    kind: 'delete-pods',
    target: snapshot.target,
    ...worded,
    patch: null,
    pods,
    inverse: null,
  } as const;
  const after = afterExclusion(ctx, finding, picture);
  if (after)
    return [
      {
        ...plan,
        // Bound to the exclusion, not to this generation: it is meant for after that write.
        id: planId('delete-pods', uid, generation, { pods, after: after.affinity ?? null }),
        summary: `${summary}${after.affinity ? ', once exclude-node is in place' : ''}.`,
        ...withImpact({
          key: 'deleteAfterExclusion',
          params: { count: pods.length, nodes, onDelete: after.onDelete, inPlace: !after.affinity },
        }),
        preconditions: after.affinity
          ? { uid, generation, fieldsOnly: true, fields: [{ path: AFFINITY_PATH, value: after.affinity }] }
          : { uid, generation, fields: [] },
        addresses: finding.code,
      },
    ];
  return [
    {
      ...plan,
      id: planId('delete-pods', uid, generation, pods),
      summary: `${summary}.`,
      ...withImpact({ key: DELETE_KEY[remadeBy], params: { count: pods.length, nodes } }),
      preconditions: { uid, generation, fields: [] },
      addresses: finding.code,
    },
  ];
}

/**
 * A StatefulSet whose exclusion reaches the crash-looping pods only once they are deleted
 * (exclusion-waits.ts): the affinity exclude-node writes, which the deletion then waits
 * for as its precondition, or none where the template already keeps the pods off the bad
 * nodes (the exclusion is in place). Undefined where the exclusion moves them itself, or
 * is not offered.
 */
function afterExclusion(
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
  picture: NonNullable<ReturnType<typeof pictureOf>>,
): { affinity?: unknown; onDelete: boolean } | undefined {
  const { snapshot } = ctx;
  const waits = exclusionWaitsFor(snapshot, picture);
  if (!waits) return undefined;
  const spec = podTemplateOf(snapshot).spec;
  const bad = snapshot.nodes.filter((n) => picture.badNodes.includes(n.metadata.name ?? ''));
  if (bad.length === picture.badNodes.length && !bad.some((n) => selectsNode(n, spec)))
    return { onDelete: waits.onDelete };
  const [exclusion] = buildExcludeNodePlans(ctx, finding, picture);
  const affinity = exclusion && exclusionAffinity(exclusion);
  return affinity === undefined ? undefined : { affinity, onDelete: waits.onDelete };
}

/**
 * The forced rollback of a StatefulSet (RolloutStuck): delete exactly the pod the
 * ordered rollout waits for, once the template it will be recreated from is known to
 * work (workloads/statefulset/ordered-block.ts). Never when the pod runs the update
 * revision itself: it would come back from the same failing template.
 */
export function buildForcedRollbackPlans(
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
  notOffered?: NotOffered,
): RemediationPlan[] {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const block = kind.orderedBlock?.(snapshot);
  if (!block?.needsDeletion || !block.updateRevisionProven) return [];
  const name = block.pod.metadata.name ?? '';
  const uid = block.pod.metadata.uid ?? '';
  if (name === '' || uid === '') return [];
  // Its replacement (same name, same claims) faces what the pod faces; unknown is no refusal.
  const place = replacementPlace(ctx, block.pod, block.updateRevision);
  if (place.fits === false) {
    notOffered?.('delete-pods', `deleting ${name} would not move the rollout: its replacement ${place.why}`);
    return [];
  }
  const object = kind.object(snapshot);
  const generation = object.metadata.generation ?? 0;
  const pods = [{ name, uid }];
  const images = imageWords(block);
  // The StatefulSet's volumeClaimTemplates: each pod's claims outlive it.
  const claims = kind.claimTemplates(object).length > 0;
  return [
    {
      id: planId('delete-pods', object.metadata.uid ?? '', generation, pods),
      kind: 'delete-pods',
      target: snapshot.target,
      summary: `Delete pod ${name} (revision ${block.revision}${images ? `, image ${images.from}` : ''}) so the StatefulSet controller recreates it at ${block.updateRevision}${images ? ` (image ${images.to})` : ''} and the rollout carries on.`,
      ...withImpact({ key: 'forcedRollback', params: { pod: name, claims } }),
      warnings: [],
      patch: null,
      pods,
      preconditions: { uid: object.metadata.uid ?? '', generation, fields: [] },
      inverse: null,
      addresses: finding.code,
    },
  ];
}
