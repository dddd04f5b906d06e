/**
 * Story 1 (seed incident A): a new image for the GPU tracker deadlocks its rollout;
 * on-call asks `/rollout-doctor`, a lead approves the strategy fix, the rollout finishes.
 * Its DRA twin (`dra`) plays the same on a GPU that comes through a ResourceClaim.
 */
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { KubeEvent, Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceClaim } from '../../src/diagnosis/k8s-dra.js';
import { TRACKER } from '../demo-scenario.js';
import { askAndApprove } from './ask-and-approve.js';
import { act, setImage, type StoryContext, waitForCluster, waitForRolledOut } from './context.js';

export const NEW_IMAGE = 'vision/boost-track-app:1.1';
const FIX = 'set-rolling-update';

const tracker = (ctx: StoryContext): Deployment | undefined =>
  ctx.sim.get('Deployment', TRACKER.namespace, TRACKER.name) as Deployment | undefined;
const livePods = (ctx: StoryContext): Pod[] =>
  (ctx.sim.list('Pod', TRACKER.namespace) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
const isReady = (p: Pod): boolean =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** The developer's `kubectl set image`, straight to the API server (the preview uses it too). */
export async function shipNewImage(simUrl: string, signal?: AbortSignal): Promise<void> {
  await setImage(simUrl, { resource: 'deployments', ...TRACKER }, 'tracker', NEW_IMAGE, signal);
}

/** "gpu-0 through ResourceClaim vision/x" for each allocated claim of the tracker's namespace. */
function heldDevices(ctx: StoryContext): string[] {
  return (ctx.sim.list('ResourceClaim', TRACKER.namespace) as ResourceClaim[]).flatMap((c) =>
    (c.status?.allocation?.devices?.results ?? []).map(
      (r) =>
        `${r.device} (${r.driver}) through ResourceClaim ${c.metadata.name ?? ''}, reserved for ${(c.status?.reservedFor ?? []).map((u) => u.name).join(', ')}`,
    ),
  );
}

export async function playTrackerStory(ctx: StoryContext, options: { dra?: boolean } = {}): Promise<void> {
  await breakTracker(ctx, options);
  const root = await askAndApprove(ctx, {
    command: `${TRACKER.name} -n ${TRACKER.namespace}`,
    fix: FIX,
    verdict: 'RolloutSurgeDeadlock',
    what: `${TRACKER.namespace}/${TRACKER.name}`,
  });
  await waitForRolledOut(ctx, root, `${TRACKER.namespace}/${TRACKER.name}`);
  await checkTrackerFixed(ctx);
}

/** The story's start, whatever the chat: the tracker available, then the new image that deadlocks it. */
export async function breakTracker(ctx: StoryContext, options: { dra?: boolean } = {}): Promise<void> {
  ctx.say('');
  ctx.say(
    options.dra
      ? '▶ Story 1 (DRA twin): the GPU tracker rollout that can never finish, its GPU allocated through a ResourceClaim'
      : '▶ Story 1: the GPU tracker rollout that can never finish',
  );
  await waitForCluster(ctx, 'the tracker never became available', () =>
    (tracker(ctx)?.status?.availableReplicas ?? 0) === 1 ? undefined : 'waiting for 1 available replica',
  );
  ctx.say(
    `  A developer ships ${NEW_IMAGE} (kubectl set image deployment/${TRACKER.name} tracker=${NEW_IMAGE} -n ${TRACKER.namespace})`,
  );
  await act(ctx, () => shipNewImage(ctx.sim.url, ctx.signal));
  let event: KubeEvent | undefined;
  await waitForCluster(ctx, 'the new tracker pod was never refused by the scheduler', () => {
    event = (ctx.sim.list('Event', TRACKER.namespace) as KubeEvent[]).find(
      (e) => e.reason === 'FailedScheduling',
    );
    return event ? undefined : 'no FailedScheduling event yet';
  });
  ctx.say(`  The new pod stays Pending. kube-scheduler: ${event?.message ?? ''}`);
  if (options.dra) for (const held of heldDevices(ctx)) ctx.say(`  The old pod holds ${held}.`);
}

/** The story's end, whatever the chat: the simulator shows the new image rolled out and ready. */
export async function checkTrackerFixed(ctx: StoryContext): Promise<void> {
  await waitForCluster(ctx, 'the tracker rollout did not finish', () => {
    const d = tracker(ctx);
    const pods = livePods(ctx);
    const want = d?.spec.replicas ?? 1;
    if ((d?.status?.observedGeneration ?? 0) < (d?.metadata.generation ?? 0)) return 'not observed yet';
    if (
      d?.status?.updatedReplicas !== want ||
      d.status.availableReplicas !== want ||
      d.status.replicas !== want
    )
      return `status ${JSON.stringify(d?.status ?? {})}`;
    if (pods.length !== want || !pods.every((p) => isReady(p) && p.spec.containers[0]?.image === NEW_IMAGE))
      return `pods ${pods.map((p) => `${p.metadata.name} ${p.status?.phase ?? ''}`).join(', ')}`;
    return undefined;
  });
  const pod = livePods(ctx)[0];
  ctx.done(
    `✔ ${TRACKER.namespace}/${TRACKER.name}: rollout complete, ${pod?.metadata.name ?? ''} (${NEW_IMAGE}) ready on ${pod?.spec.nodeName ?? ''}`,
  );
}
