/**
 * The StatefulSet story (`npm run demo -- --kind statefulset`): release 3.5.0 of the
 * ledger cannot start, so its OrderedReady update stops at ledger-2. On-call asks
 * `/rollout-doctor sts/ledger`: RolloutStuck, fix the template first, nothing to
 * delete yet. The developer reverts (`kubectl rollout undo`); ledger-2 still blocks (the
 * forced rollback). On-call presses Re-run, a lead approves deleting exactly ledger-2,
 * and the rollout completes.
 */
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { StatefulSet } from '../../src/diagnosis/k8s-workloads.js';
import { LEDGER } from '../demo-scenario.js';
import {
  act,
  CHANNELS,
  setImage,
  PEOPLE,
  type StoryContext,
  waitForCluster,
  waitForRolledOut,
  waitForSlack,
} from './context.js';
import { DemoError } from './demo-error.js';
import { buttonsOf, findMessage } from './slack-user.js';

const GOOD = 'registry.example.com/payments/ledger:3.4.1';
const BAD = 'registry.example.com/payments/ledger:3.5.0';
const FIX = 'delete-pods';

const ledger = (ctx: StoryContext): StatefulSet | undefined =>
  ctx.sim.get('StatefulSet', LEDGER.namespace, LEDGER.name) as StatefulSet | undefined;
const pod = (ctx: StoryContext, name: string): Pod | undefined =>
  ctx.sim.get('Pod', LEDGER.namespace, name) as Pod | undefined;

/** The developer's `kubectl set image` (or, for the good image, `kubectl rollout undo`). */
const shipImage = (ctx: StoryContext, image: string): Promise<void> =>
  setImage(ctx.sim.url, { resource: 'statefulsets', ...LEDGER }, 'ledger', image, ctx.signal);

const ready = (ctx: StoryContext): string | undefined => {
  const status = ledger(ctx)?.status;
  return status?.readyReplicas === 3 && status.updatedReplicas === 3
    ? undefined
    : `status ${JSON.stringify(status ?? {})}`;
};

export async function playLedgerStory(ctx: StoryContext): Promise<void> {
  ctx.say('');
  ctx.say('▶ Story: the ledger StatefulSet whose bad release blocks its rollout, even after the revert');
  await waitForCluster(ctx, 'the ledger never became ready', () => ready(ctx));
  ctx.say(
    `  A developer ships ${BAD} (kubectl set image sts/${LEDGER.name} ledger=${BAD} -n ${LEDGER.namespace})`,
  );
  await act(ctx, () => shipImage(ctx, BAD));
  await waitForCluster(ctx, 'ledger-2 never crash-looped', () =>
    pod(ctx, 'ledger-2')?.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff'
      ? undefined
      : 'ledger-2 is not in CrashLoopBackOff yet',
  );
  ctx.say('  ledger-2 crash-loops; the controller stops the rollout there.');

  const command = `sts/${LEDGER.name} -n ${LEDGER.namespace}`;
  ctx.say(`  @${PEOPLE.oncall} in #incidents: /rollout-doctor ${command}`);
  await act(ctx, () => ctx.user.command(command, PEOPLE.oncall, CHANNELS.incidents));
  const first = await waitForSlack(
    ctx,
    (slack) =>
      findMessage(slack, (m) =>
        m.channel === CHANNELS.incidents && !m.threadTs && m.text.includes('RolloutStuck')
          ? buttonsOf(m).find((b) => b.text === 'Re-run')
          : undefined,
      ),
    `no RolloutStuck diagnosis with a Re-run button within ${ctx.stepTimeoutMs / 1000} s`,
  );
  if (buttonsOf(first.message).some((b) => b.text === `Apply: ${FIX}`)) {
    throw new DemoError('a deletion was offered while the template is still bad');
  }
  ctx.done(
    `✔ diagnosed ${LEDGER.namespace}/statefulset/${LEDGER.name}: RolloutStuck, fix the template first`,
  );

  ctx.say(
    `  The developer reverts (kubectl rollout undo sts/${LEDGER.name} -n ${LEDGER.namespace}); ledger-2 still blocks.`,
  );
  await act(ctx, () => shipImage(ctx, GOOD));
  await waitForCluster(ctx, 'the revert was never observed', () => {
    const status = ledger(ctx)?.status;
    return status?.updateRevision !== undefined && status.updateRevision === status.currentRevision
      ? undefined
      : 'the update revision is not the current one yet';
  });

  ctx.say(`  @${PEOPLE.oncall} presses Re-run`);
  await act(ctx, () => ctx.user.click(first.message, first.found, PEOPLE.oncall));
  const second = await waitForSlack(
    ctx,
    (slack) =>
      findMessage(slack, (m) =>
        m.channel === CHANNELS.incidents && m.ts !== first.message.ts
          ? buttonsOf(m).find((b) => b.text === `Apply: ${FIX}`)
          : undefined,
      ),
    `no diagnosis with an "Apply: ${FIX}" button within ${ctx.stepTimeoutMs / 1000} s`,
  );
  ctx.done(`✔ re-diagnosed: RolloutStuck, the forced rollback (delete exactly ledger-2)`);

  ctx.say(`  @${PEOPLE.lead} (an approver) clicks "Apply: ${FIX}" and confirms`);
  await act(ctx, () => ctx.user.click(second.message, second.found, PEOPLE.lead));
  // The Re-run's result is a reply in the first message's thread: the outcome goes there too.
  const root = second.message.threadTs ? first.message : second.message;
  await waitForRolledOut(ctx, root, `${LEDGER.namespace}/${LEDGER.name}`);
  await waitForCluster(ctx, 'the ledger rollout did not finish', () => {
    const problem = ready(ctx);
    if (problem) return problem;
    const images = [0, 1, 2].map((i) => pod(ctx, `ledger-${i}`)?.spec.containers[0]?.image);
    return images.every((i) => i === GOOD) ? undefined : `images ${images.join(', ')}`;
  });
  ctx.done(`✔ ${LEDGER.namespace}/statefulset/${LEDGER.name}: rollout complete, ledger-0..2 at ${GOOD}`);
}
