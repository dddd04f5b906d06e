/**
 * Story 2 (seed incident B): checkout crash-loops on one node; Alertmanager's
 * KubePodCrashLooping opens a thread with the diagnosis, a lead approves the node
 * exclusion, the pods run on the other nodes.
 */
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { crashLooping, notification } from '../../test/support/alert-payloads.js';
import { BAD_NODE, CHECKOUT } from '../demo-scenario.js';
import {
  act,
  CHANNELS,
  PEOPLE,
  slackOf,
  type StoryContext,
  waitForCluster,
  waitForRolledOut,
  waitForSlack,
} from './context.js';
import { DemoError } from './demo-error.js';
import { buttonsOf, findMessage } from './slack-user.js';

const FIX = 'exclude-node';

const livePods = (ctx: StoryContext): Pod[] =>
  (ctx.sim.list('Pod', CHECKOUT.namespace) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
const isReady = (p: Pod): boolean =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** Alertmanager's KubePodCrashLooping for `pod`, posted to the app's route (whatever the chat). */
export async function fireAlert(ctx: StoryContext, pod: string): Promise<void> {
  const payload = notification([crashLooping(pod, CHECKOUT.namespace, { container: 'checkout' })], {
    groupKey: `{}/{severity="warning"}:{alertname="KubePodCrashLooping", namespace="${CHECKOUT.namespace}"}`,
  });
  for (const a of payload.alerts) a.startsAt = new Date().toISOString();
  const res = await fetch(`${ctx.appUrl}/alerts/alertmanager`, {
    method: 'POST',
    signal: ctx.signal,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.alertToken}` },
    body: JSON.stringify(payload),
  });
  if (res.status !== 200)
    throw new DemoError(`the alert route answered HTTP ${res.status}: ${await res.text()}`);
}

/** The story's start, whatever the chat: a checkout pod crash-looping on the bad node (its name). */
export async function waitForCrashingPod(ctx: StoryContext): Promise<string> {
  ctx.say('');
  ctx.say(`▶ Story 2: checkout crash-loops, but only on ${BAD_NODE}`);
  let crashing: Pod | undefined;
  await waitForCluster(ctx, `no checkout pod crash-loops on ${BAD_NODE}`, () => {
    crashing = livePods(ctx).find(
      (p) =>
        p.spec.nodeName === BAD_NODE &&
        p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff',
    );
    return crashing ? undefined : 'waiting for CrashLoopBackOff';
  });
  return crashing?.metadata.name ?? '';
}

export async function playCheckoutStory(ctx: StoryContext): Promise<void> {
  const pod = await waitForCrashingPod(ctx);
  ctx.say(
    `  Alertmanager fires KubePodCrashLooping for pod ${CHECKOUT.namespace}/${pod} (POST /alerts/alertmanager, bearer token)`,
  );
  await act(ctx, () => fireAlert(ctx, pod));

  const found = await waitForSlack(
    ctx,
    (slack) =>
      findMessage(slack, (m) =>
        m.channel === CHANNELS.alerts && m.threadTs
          ? buttonsOf(m).find((b) => b.text === `Apply: ${FIX}`)
          : undefined,
      ),
    `no alert thread with an "Apply: ${FIX}" button within ${ctx.stepTimeoutMs / 1000} s`,
  );
  if (!found.message.text.includes('CrashLoopOnNode')) {
    throw new DemoError(`the checkout verdict is not CrashLoopOnNode: ${found.message.text}`);
  }
  ctx.done(
    `✔ diagnosed ${CHECKOUT.namespace}/${CHECKOUT.name} from the alert: CrashLoopOnNode on ${BAD_NODE}`,
  );

  ctx.say(`  @${PEOPLE.lead} clicks "Apply: ${FIX}" in the thread and confirms`);
  await act(ctx, () => ctx.user.click(found.message, found.found, PEOPLE.lead));
  const root = slackOf(ctx).messages.get(`${found.message.channel}/${found.message.threadTs ?? ''}`);
  if (!root) throw new DemoError('the alert thread root disappeared');
  await waitForRolledOut(ctx, root, `${CHECKOUT.namespace}/${CHECKOUT.name}`);
  await checkCheckoutFixed(ctx);
}

/** The story's end, whatever the chat: every checkout pod ready, none on the bad node. */
export async function checkCheckoutFixed(ctx: StoryContext): Promise<void> {
  await waitForCluster(ctx, `checkout did not settle away from ${BAD_NODE}`, () => {
    const pods = livePods(ctx);
    const want =
      (ctx.sim.get('Deployment', CHECKOUT.namespace, CHECKOUT.name) as Deployment | undefined)?.spec
        .replicas ?? 1;
    if (pods.length !== want) return `${pods.length} pods`;
    const bad = pods.filter((p) => p.spec.nodeName === BAD_NODE || !isReady(p));
    return bad.length
      ? `not ready or on ${BAD_NODE}: ${bad.map((p) => p.metadata.name).join(', ')}`
      : undefined;
  });
  const pods = livePods(ctx);
  const nodes = [...new Set(pods.map((p) => p.spec.nodeName ?? ''))].sort().join(', ');
  ctx.done(
    `✔ ${CHECKOUT.namespace}/${CHECKOUT.name}: ${pods.length}/${pods.length} pods ready on ${nodes}, none on ${BAD_NODE}`,
  );
}
