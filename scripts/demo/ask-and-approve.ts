/**
 * The step every surge-deadlock story shares: on-call asks `/rollout-doctor COMMAND` in
 * #incidents, the diagnosis comes back with an "Apply: FIX" button and the expected
 * verdict, and the lead (an approver) clicks it and confirms.
 */
import type { StoredMessage } from '../../test/support/slack-standin.js';
import { act, CHANNELS, PEOPLE, type StoryContext, waitForSlack } from './context.js';
import { DemoError } from './demo-error.js';
import { buttonsOf, findMessage } from './slack-user.js';

export async function askAndApprove(
  ctx: StoryContext,
  step: { command: string; fix: string; verdict: string; what: string },
): Promise<StoredMessage> {
  const { command, fix, verdict, what } = step;
  ctx.say(`  @${PEOPLE.oncall} in #incidents: /rollout-doctor ${command}`);
  await act(ctx, () => ctx.user.command(command, PEOPLE.oncall, CHANNELS.incidents));
  const result = await waitForSlack(
    ctx,
    (slack) =>
      findMessage(slack, (m) =>
        m.channel === CHANNELS.incidents && !m.threadTs
          ? buttonsOf(m).find((b) => b.text === `Apply: ${fix}`)
          : undefined,
      ),
    `no diagnosis with an "Apply: ${fix}" button within ${ctx.stepTimeoutMs / 1000} s`,
  );
  if (!result.message.text.includes(verdict)) {
    throw new DemoError(`${what}'s verdict is not ${verdict}: ${result.message.text}`);
  }
  ctx.done(`✔ diagnosed ${what}: ${verdict}`);
  ctx.say(`  @${PEOPLE.lead} (an approver) clicks "Apply: ${fix}" and confirms`);
  await act(ctx, () => ctx.user.click(result.message, result.found, PEOPLE.lead));
  return result.message;
}
