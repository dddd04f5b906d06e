/**
 * The Argo Rollout story (`npm run demo -- --kind rollout`): the GPU tracker as a canary
 * Rollout (sim/scenarios/gpu-deadlock-rollout.yaml). Its next image's canary pod waits
 * for the GPU the stable pod holds, since the basic canary keeps the stable pod until
 * the canary one is available. On-call asks `/rollout-doctor rollout/...`, a lead
 * approves maxSurge 0 / maxUnavailable 1 on the canary, the controller scales the stable
 * pod down itself, the canary pod runs, and the Rollout stops at its pause step for a
 * person to promote.
 */
import type { KubeEvent, Pod } from '../../src/diagnosis/k8s.js';
import { ARGO_TRACKER } from '../demo-scenario.js';
import { askAndApprove } from './ask-and-approve.js';
import { act, setImage, type StoryContext, waitForCluster, waitForRolledOut } from './context.js';

export const CANARY_IMAGE = 'vision/boost-track-app:1.1';
const FIX = 'set-rolling-update';
/** The outcome reply once the Rollout stands at its pause step (src/chat/use-cases/outcome.ts). */
const PAUSED = /^(?::[a-z_]+: )?applied; the rollout is paused and waits for a person:/;

const phase = (ctx: StoryContext): string | undefined =>
  (
    ctx.sim.get('Rollout', ARGO_TRACKER.namespace, ARGO_TRACKER.name) as
      { status?: { phase?: string } } | undefined
  )?.status?.phase;
const livePods = (ctx: StoryContext): Pod[] =>
  (ctx.sim.list('Pod', ARGO_TRACKER.namespace) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);

export async function playCanaryStory(ctx: StoryContext): Promise<void> {
  ctx.say('');
  ctx.say(
    '▶ Story: the GPU tracker Argo Rollout whose canary can never start (one GPU, the stable pod holds it)',
  );
  await waitForCluster(ctx, 'the tracker Rollout never became Healthy', () =>
    phase(ctx) === 'Healthy' ? undefined : `phase ${phase(ctx) ?? 'none'}`,
  );
  ctx.say(
    `  A developer ships ${CANARY_IMAGE} (kubectl argo rollouts set image ${ARGO_TRACKER.name} tracker=${CANARY_IMAGE} -n ${ARGO_TRACKER.namespace})`,
  );
  await act(ctx, () =>
    setImage(ctx.sim.url, { resource: 'rollouts', ...ARGO_TRACKER }, 'tracker', CANARY_IMAGE, ctx.signal),
  );
  let event: KubeEvent | undefined;
  await waitForCluster(ctx, 'the canary pod was never refused by the scheduler', () => {
    event = (ctx.sim.list('Event', ARGO_TRACKER.namespace) as KubeEvent[]).find(
      (e) => e.reason === 'FailedScheduling',
    );
    return event ? undefined : 'no FailedScheduling event yet';
  });
  ctx.say(`  The canary pod stays Pending. kube-scheduler: ${event?.message ?? ''}`);

  const root = await askAndApprove(ctx, {
    command: `rollout/${ARGO_TRACKER.name} -n ${ARGO_TRACKER.namespace}`,
    fix: FIX,
    verdict: 'RolloutSurgeDeadlock',
    what: `${ARGO_TRACKER.namespace}/rollout/${ARGO_TRACKER.name}`,
  });
  await waitForRolledOut(ctx, root, `${ARGO_TRACKER.namespace}/${ARGO_TRACKER.name}`, PAUSED);
  await waitForCluster(ctx, 'the canary pod never ran', () => {
    const running = livePods(ctx).filter(
      (p) => p.status?.phase === 'Running' && p.spec.containers[0]?.image === CANARY_IMAGE,
    );
    return running.length === 1 && phase(ctx) === 'Paused' ? undefined : `phase ${phase(ctx) ?? 'none'}`;
  });
  ctx.done(
    `✔ ${ARGO_TRACKER.namespace}/rollout/${ARGO_TRACKER.name}: the canary runs ${CANARY_IMAGE} on gpu-node-1; the Rollout waits at its pause step for a promote`,
  );
}
