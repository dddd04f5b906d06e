/**
 * The DaemonSet story (`npm run demo -- --kind daemonset`): a node agent serving on
 * hostPort 9100 rolls out with maxSurge 1, so its new pod waits beside the old one on
 * the same node for the port the old one holds. On-call asks `/rollout-doctor
 * ds/node-agent`, a lead approves maxSurge 0 on spec.updateStrategy, and the DaemonSet
 * controller replaces the agent one node at a time until the rollout completes.
 */
import type { DaemonSet } from '../../src/diagnosis/k8s-workloads.js';
import type { KubeEvent, Pod } from '../../src/diagnosis/k8s.js';
import { NODE_AGENT } from '../demo-scenario.js';
import { askAndApprove } from './ask-and-approve.js';
import { act, setImage, type StoryContext, waitForCluster, waitForRolledOut } from './context.js';

export const AGENT_IMAGE = 'registry.example.com/telemetry/node-agent:1.9.0';
const FIX = 'set-rolling-update';

const agent = (ctx: StoryContext): DaemonSet | undefined =>
  ctx.sim.get('DaemonSet', NODE_AGENT.namespace, NODE_AGENT.name) as DaemonSet | undefined;
const livePods = (ctx: StoryContext): Pod[] =>
  (ctx.sim.list('Pod', NODE_AGENT.namespace) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);

/** Why the agent is not settled on every node it wants, or undefined when it is. */
function unsettled(ds: DaemonSet | undefined, image?: string, pods: Pod[] = []): string | undefined {
  const status = ds?.status;
  const want = status?.desiredNumberScheduled ?? 0;
  if (!ds || want === 0) return 'no node wants the agent yet';
  if ((status?.observedGeneration ?? 0) < (ds.metadata.generation ?? 0)) return 'not observed yet';
  if (status?.updatedNumberScheduled !== want || status.numberAvailable !== want)
    return `status ${JSON.stringify(status ?? {})}`;
  if (image && (pods.length !== want || !pods.every((p) => p.spec.containers[0]?.image === image)))
    return `pods ${pods.map((p) => `${p.metadata.name} ${p.spec.containers[0]?.image ?? ''}`).join(', ')}`;
  return undefined;
}

export async function playNodeAgentStory(ctx: StoryContext): Promise<void> {
  ctx.say('');
  ctx.say('▶ Story: the node agent DaemonSet whose rollout can never finish (hostPort 9100, maxSurge 1)');
  await waitForCluster(ctx, 'the node agent never became available on every node', () =>
    unsettled(agent(ctx)),
  );
  ctx.say(
    `  A developer ships ${AGENT_IMAGE} (kubectl set image ds/${NODE_AGENT.name} agent=${AGENT_IMAGE} -n ${NODE_AGENT.namespace})`,
  );
  await act(ctx, () =>
    setImage(ctx.sim.url, { resource: 'daemonsets', ...NODE_AGENT }, 'agent', AGENT_IMAGE, ctx.signal),
  );
  let event: KubeEvent | undefined;
  await waitForCluster(ctx, 'the surge pod was never refused by the scheduler', () => {
    event = (ctx.sim.list('Event', NODE_AGENT.namespace) as KubeEvent[]).find(
      (e) => e.reason === 'FailedScheduling',
    );
    return event ? undefined : 'no FailedScheduling event yet';
  });
  ctx.say(`  The surge pod stays Pending beside the old one. kube-scheduler: ${event?.message ?? ''}`);

  const root = await askAndApprove(ctx, {
    command: `ds/${NODE_AGENT.name} -n ${NODE_AGENT.namespace}`,
    fix: FIX,
    verdict: 'RolloutSurgeDeadlock',
    what: `${NODE_AGENT.namespace}/daemonset/${NODE_AGENT.name}`,
  });
  await waitForRolledOut(ctx, root, `${NODE_AGENT.namespace}/${NODE_AGENT.name}`);
  await waitForCluster(ctx, 'the node agent rollout did not finish', () =>
    unsettled(agent(ctx), AGENT_IMAGE, livePods(ctx)),
  );
  ctx.done(
    `✔ ${NODE_AGENT.namespace}/daemonset/${NODE_AGENT.name}: rollout complete, ${AGENT_IMAGE} on ${livePods(
      ctx,
    )
      .map((p) => p.spec.nodeName ?? '')
      .sort()
      .join(', ')}`,
  );
}
