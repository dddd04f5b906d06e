/**
 * One reader sending commands, or clicking Re-run, as fast as Slack relays them
 * (issues 27.8, 41.1): past the person's budget per minute each further start is
 * answered privately and starts nothing (no public post, no job queued ahead of
 * alerts), and another person in another channel is not held up by it. A start the
 * channel's budget refuses leaves the person's own budget as it was. Real app, real
 * Redis, Slack stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2e, type E2eHarness } from '../support/e2e-harness.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let h: E2eHarness;

beforeAll(async () => {
  h = await startE2e({
    scenario: 'sim/scenarios/gpu-deadlock.yaml',
    appEnv: {
      ROLLOUT_DOCTOR_COMMANDS_PER_USER_PER_MINUTE: '3',
      ROLLOUT_DOCTOR_COMMANDS_PER_CHANNEL_PER_MINUTE: '5',
    },
  });
});
afterAll(async () => {
  await h?.close();
});

const publicPosts = (): number =>
  h.slack.calls.filter((c) => c.method === 'chat.postMessage' && String(c.args.text).includes('asked for'))
    .length;

describe('slash command budget', () => {
  it('past 3 per person a minute: private answers, no post, no job; another person elsewhere still runs', async () => {
    const flood = [];
    for (let i = 0; i < 8; i++)
      flood.push(
        await h.command(`diagnose deployment/web-${i} -n vision`, { user: 'U0FLOOD', channel: 'C0FLOOD' }),
      );
    expect(flood.map((r) => r.status)).toEqual(Array(8).fill(200));
    const limited = flood.filter((r) => r.body.includes('Not started: you started 3 runs this minute'));
    expect(limited).toHaveLength(5);
    await h.slack.waitFor(() => publicPosts() >= 3, SIGNAL_WAIT_MS);
    expect(h.audit().filter((e) => e.action === 'refusal' && e.reason === 'rate-limited')).toHaveLength(5);

    const other = await h.command('diagnose deployment/vision-object-tracker -n vision', {
      user: 'U0OTHER',
      channel: 'C0OTHER',
    });
    expect(other.body).not.toContain('Not started');
    await h.slack.waitFor(() => publicPosts() >= 4, SIGNAL_WAIT_MS);
    expect(publicPosts()).toBe(4);
  });

  it('the channel budget holds for everyone in the channel together', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++)
      for (const user of ['U0ANNA', 'U0BEN'])
        answers.push(
          await h.command(`diagnose deployment/api-${user.toLowerCase()}-${i} -n vision`, {
            user,
            channel: 'C0BUSY',
          }),
        );
    expect(answers.filter((r) => r.body.includes('this channel started 5 runs this minute'))).toHaveLength(1);
    // U0BEN's third was the one refused, by the channel: it did not use up his own
    // budget, so one more elsewhere runs, and only the one after that is his fourth.
    const elsewhere = await h.command('diagnose deployment/api-ben-3 -n vision', {
      user: 'U0BEN',
      channel: 'C0ELSE',
    });
    expect(elsewhere.body).not.toContain('Not started');
    const fourth = await h.command('diagnose deployment/api-ben-4 -n vision', {
      user: 'U0BEN',
      channel: 'C0ELSE',
    });
    expect(fourth.body).toContain('Not started: you started 3 runs this minute');
  });

  it('Re-run clicked 8 times at once takes from the same budget: the rest refused privately and audited', async () => {
    await h.command('diagnose deployment/vision-object-tracker -n vision', {
      user: 'U0ASKER',
      channel: 'C0RERUN',
    });
    const result = await h.slack.waitFor(
      () =>
        [...h.slack.messages.values()].find(
          (m) =>
            m.channel === 'C0RERUN' &&
            m.text.startsWith('deployment/vision-object-tracker in vision:') &&
            h.buttons(m).some((b) => b.action_id === 'rerun_diagnosis'),
        ),
      SIGNAL_WAIT_MS,
    );
    const limited = () =>
      h.audit().flatMap((e) => (e.action === 'refusal' && e.reason === 'rate-limited' ? [e] : []));
    const before = limited().length;
    const clicks = await Promise.all(
      Array.from({ length: 8 }, () => h.click(result, 'rerun_diagnosis', 'U0CLICKER')),
    );
    expect(clicks.map((c) => c.status)).toEqual(Array(8).fill(200));
    const reruns = (): number =>
      h.slack.calls.filter(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === 'C0RERUN' &&
          String(c.args.text).includes('re-runs the diagnosis'),
      ).length;
    await h.slack.waitFor(
      () =>
        h.slack
          .callsOf('chat.postEphemeral')
          .filter((c) => c.args.user === 'U0CLICKER' && String(c.args.text).includes('you started 3 runs'))
          .length >= 5,
      SIGNAL_WAIT_MS,
    );
    await h.slack.waitFor(() => reruns() >= 3, SIGNAL_WAIT_MS);
    expect(reruns()).toBe(3);
    const refusals = limited();
    expect(refusals.length - before).toBe(5);
    expect(refusals.slice(before).every((e) => e.user === 'U0CLICKER' && e.planId === 'rerun')).toBe(true);
  });
});
